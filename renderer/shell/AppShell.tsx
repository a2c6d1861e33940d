import { useEffect, type ReactNode } from 'react';
import { useSession } from '../session/sessionStore.js';
import { useRouter } from '../router/routerStore.js';
import { Link } from '../router/Link.js';
import { isDesktop } from '../api/client.js';
import { followReplicaStatus } from '../sync/replicaStore.js';
import { HeaderSyncState, SyncIndicator } from '../sync/SyncIndicator.js';
import { CustomObjectsNav } from '../customObjects/CustomObjectsNav.js';
import { SmartListsNav } from '../smartLists/SmartListsNav.js';
import { CommandLayer, PaletteButton } from '../commands/CommandLayer.js';
import { NotificationBell } from '../reminders/NotificationBell.js';
import { DrawerScrim, MenuButton, useNavDrawer } from './NavDrawer.js';
import { ConfirmHost } from './ConfirmDialog.js';
import { UpdateBanner } from '../local/UpdateBanner.js';

const SECTIONS = [
  { to: '/', label: 'Today' },
  { to: '/contacts', label: 'Contacts' },
  { to: '/leads', label: 'Leads' },
  { to: '/deals', label: 'Deals' },
  { to: '/tasks', label: 'Tasks' },
  { to: '/notes', label: 'Notes' },
  { to: '/reports', label: 'Reports' },
  { to: '/products', label: 'Products' },
  { to: '/sequences', label: 'Sequences' },
  { to: '/enrollments', label: 'Enrollments' },
  { to: '/duplicates', label: 'Duplicates' },
  { to: '/settings', label: 'Settings' },
];

/** Navigation on the left (a drawer behind the top bar's menu button on a phone), the current screen on the right. */
export function AppShell({ children }: { children: ReactNode }) {
  const { user, signOut } = useSession();
  const path = useRouter((s) => s.path);
  // The shell shows only while someone is signed in: that is when a replica's sync status is followed.
  useEffect(() => followReplicaStatus(), []);
  const drawer = useNavDrawer(path);
  return (
    <div className={`shell${drawer.open ? ' nav-open' : ''}`}>
      {/* Above the navigation on wide windows; the phone's top bar, with the menu button and a replica's sync state, on narrow ones. */}
      <header className="topbar">
        <MenuButton drawer={drawer} />
        <div className="brand">Outpost</div>
        <HeaderSyncState />
        <NotificationBell />
      </header>
      <nav className="sidebar" id="main-nav" aria-label="Main">
        <PaletteButton />
        <ul>
          {SECTIONS.map((s) => (
            <li key={s.to}>
              <Link to={s.to} aria-current={(s.to === '/' ? path === '/' : path.startsWith(s.to)) ? 'page' : undefined}>{s.label}</Link>
            </li>
          ))}
        </ul>
        <SmartListsNav />
        <CustomObjectsNav path={path} />
        <SyncIndicator />
        <div className="who">
          <span title={user?.email}>{user?.name}</span>
          {!isDesktop && <button type="button" className="link" onClick={() => void signOut()}>Sign out</button>}
        </div>
      </nav>
      <DrawerScrim drawer={drawer} />
      <main className="content">
        <UpdateBanner />
        {children}
      </main>
      <CommandLayer />
      <ConfirmHost />
    </div>
  );
}
