import type { ReactNode } from 'react';
import { Link } from '../../router/Link.js';
import { useSession } from '../../session/sessionStore.js';
import './admin.css';

/** Whether the signed-in person may change account-wide settings. */
export const useIsAdmin = () => useSession((s) => s.user?.role === 'admin');

/**
 * The frame of an administration screen: the way back to Settings, the
 * title, and for agents a line saying why there is nothing to change.
 */
export function AdminScreen({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  const isAdmin = useIsAdmin();
  return (
    <section className="screen admin-screen">
      <header className="screen-header">
        <div>
          <p className="muted"><Link to="/settings">Settings</Link></p>
          <h1>{title}</h1>
          <p className="muted">{intro}</p>
        </div>
      </header>
      {!isAdmin && <p className="notice" role="status">Only administrators can change these. You can see them here.</p>}
      {children}
    </section>
  );
}
