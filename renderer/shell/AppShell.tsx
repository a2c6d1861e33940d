import { useEffect, type ReactNode } from 'react';
import { useSession } from '../session/sessionStore.js';
import { useRouter } from '../router/routerStore.js';
import { Link } from '../router/Link.js';
import { isDesktop } from '../api/client.js';
import { followReplicaStatus } from '../sync/replicaStore.js';
import { SyncIndicator } from '../sync/SyncIndicator.js';
import { CustomObjectsNav } from '../customObjects/CustomObjectsNav.js';
import { CommandLayer, PaletteButton } from '../commands/CommandLayer.js';

const SECTIONS = [
  { to: '/contacts', label: 'Contacts' },
  { to: '/leads', label: 'Leads' },
  { to: '/deals', label: 'Deals' },
  { to: '/tasks', label: 'Tasks' },
  { to: '/products', label: 'Products' },
  { to: '/sequences', label: 'Sequences' },
  { to: '/enrollments', label: 'Enrollments' },
  { to: '/settings', label: 'Settings' },
];

/** Navigation on the left, the current screen on the right. */
export function AppShell({ children }: { children: ReactNode }) {
  const { user, signOut } = useSession();
  const path = useRouter((s) => s.path);
  // The shell shows only while someone is signed in: that is when a replica's sync status is followed.
  useEffect(() => followReplicaStatus(), []);
  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Main">
        <div className="brand">Outpost</div>
        <PaletteButton />
        <ul>
          {SECTIONS.map((s) => (
            <li key={s.to}>
              <Link to={s.to} aria-current={path.startsWith(s.to) ? 'page' : undefined}>{s.label}</Link>
            </li>
          ))}
        </ul>
        <CustomObjectsNav path={path} />
        <SyncIndicator />
        <div className="who">
          <span title={user?.email}>{user?.name}</span>
          {!isDesktop && <button type="button" className="link" onClick={() => void signOut()}>Sign out</button>}
        </div>
      </nav>
      <main className="content">{children}</main>
      <CommandLayer />
    </div>
  );
}
