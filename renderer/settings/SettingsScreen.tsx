import { useSession } from '../session/sessionStore.js';
import { OAuthClientsCard } from './OAuthClientsCard.js';
import { HubConnectionCard } from './HubConnectionCard.js';
import { AccountCard } from './AccountCard.js';
import { ExchangeRatesCard } from './ExchangeRatesCard.js';
import { isDesktop } from '../api/client.js';
import { Link } from '../router/Link.js';
import { CalendarFeedCard } from '../importExport/CalendarFeedCard.js';
import { MailCard } from './MailCard.js';
import { capitalized } from '../shell/words.js';
import { AdministrationCard } from './admin/AdministrationCard.js';

/** The account, the signed-in user, their calendar feed, in the desktop app its hub connection, and for admins the registered OAuth applications. */
export function SettingsScreen() {
  const { user, account } = useSession();
  return (
    <section className="screen">
      <header className="screen-header"><h1>Settings</h1></header>
      <div className="columns">
        <dl className="card details" aria-label="Account">
          <dt>Account</dt><dd>{account?.name}</dd>
          <dt>Plan</dt><dd>{account && capitalized(account.plan)}</dd>
          <dt>Products and orders</dt><dd>{account?.commerce_changes === 'disabled' ? 'Read only (changes turned off)' : 'Changes allowed'}</dd>
          <dt>Currency</dt><dd>{account?.currency}</dd>
          <dt>Time zone</dt><dd>{account?.timezone}</dd>
        </dl>
        <dl className="card details" aria-label="You">
          <dt>Name</dt><dd>{user?.name}</dd>
          <dt>Email</dt><dd>{user?.email}</dd>
          <dt>Role</dt><dd>{user?.role === 'admin' ? 'Administrator' : 'Agent'}</dd>
        </dl>
      </div>
      {user?.role === 'admin' && account && <AccountCard account={account} />}
      <ExchangeRatesCard />
      {user?.role === 'admin' && (
        <section className="card" aria-label="Team">
          <h2>Team</h2>
          <p className="muted">Add people, change their roles, deactivate them and reset passwords. <Link to="/settings/team">Team</Link></p>
        </section>
      )}
      {user?.role === 'admin' && account && <MailCard account={account} />}
      {user?.role === 'admin' && <AdministrationCard />}
      <section className="card" aria-label="Custom objects">
        <h2>Custom objects</h2>
        <p className="muted">
          {user?.role === 'admin' ? 'Define kinds of records of your own and their fields.' : 'The kinds of records of your own your administrators defined, and their fields.'}{' '}
          <Link to="/settings/custom-objects">Custom objects</Link>
        </p>
      </section>
      <CalendarFeedCard />
      {isDesktop && <HubConnectionCard />}
      {user?.role === 'admin' && <OAuthClientsCard />}
    </section>
  );
}
