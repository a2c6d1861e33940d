import type { Account } from '../../shared/resources/account.js';
import type { ActionType } from '../../shared/resources/sequence.js';
import { Link } from '../router/Link.js';
import { useSession } from '../session/sessionStore.js';

/** `smtp_configured` as `GET /v2/accounts/self` answers it (false when the hub has no mail server). */
type AccountWithMail = Account & { smtp_configured?: boolean };

/** Whether the account is known to have no mail server: unknown (an older hub) is not warned about. */
export function useNoMailServer(): boolean {
  return useSession((s) => (s.account as AccountWithMail | null)?.smtp_configured === false);
}

/**
 * Said wherever a sequence with email steps is shown, edited or enrolled
 * into while the hub has no mail server: its emails would only fail, so
 * people learn it before, not from failed steps afterwards.
 */
export function NoMailServerWarning({ steps }: { steps: readonly { action_type: ActionType }[] }) {
  const noMail = useNoMailServer();
  const isAdmin = useSession((s) => s.user?.role === 'admin');
  if (!noMail || !steps.some((step) => step.action_type === 'automated_email')) return null;
  return (
    <p className="notice" role="status">
      Email steps can't be sent: no mail server is set up. An administrator can set one up in{' '}
      {isAdmin ? <Link to="/settings">Settings</Link> : 'Settings'}.
    </p>
  );
}
