import { useState } from 'react';
import type { User } from '../../../shared/resources/user.js';
import { useSession } from '../../session/sessionStore.js';
import { Link } from '../../router/Link.js';
import { DataTable } from '../../lists/DataTable.js';
import { AddUserForm } from './AddUserForm.js';
import { InviteLinkBox } from './InviteLinkBox.js';
import { UserPanel } from './UserPanel.js';
import { roleLabel, statusLabel } from './words.js';
import { useTeam, type InviteLink } from './useTeam.js';
import './team.css';

const STATUS_CLASS = { Active: 'status-active', Deactivated: 'status-inactive', Invited: 'status-invited' } as const;

/**
 * Settings → Team: everyone on the account. Admins add people (with a
 * password or a one-time invite link), change roles, deactivate and
 * reactivate, and reset passwords; agents see the list read only (the API
 * refuses them any change). On a desktop replica the API refuses these
 * changes (the team is managed on the hub), and its message is shown.
 */
export function TeamScreen() {
  const me = useSession((s) => s.user);
  const isAdmin = me?.role === 'admin';
  const team = useTeam();
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<{ user: User; invite: InviteLink } | null>(null);
  const [managing, setManaging] = useState<number | null>(null);
  const managed = team.users?.find((u) => u.id === managing) ?? null;

  return (
    <section className="screen team">
      <header className="screen-header">
        <div>
          <p className="breadcrumbs"><Link to="/settings">Settings</Link></p>
          <h1>Team</h1>
        </div>
        {isAdmin && !adding && <button type="button" className="primary" onClick={() => {
          setAdding(true);
          setAdded(null);
        }}>Add a user</button>}
      </header>
      {!isAdmin && <p className="notice" role="note">Only administrators add people and change their roles or access.</p>}
      {adding && (
        <AddUserForm onAdd={team.add} onCancel={() => setAdding(false)} onAdded={(user, invite) => {
          setAdding(false);
          if (invite) setAdded({ user, invite });
        }} />
      )}
      {added && <InviteLinkBox title={`${added.user.name} is invited`} link={added.invite} onDismiss={() => setAdded(null)} />}
      {managed && <UserPanel key={managed.id} user={managed} isSelf={managed.id === me?.id} team={team} onClose={() => setManaging(null)} />}
      {team.loadError && <p className="form-error" role="alert">{team.loadError}</p>}
      {team.users === null && !team.loadError && <p className="muted">Loading…</p>}
      {team.users !== null && (
        <DataTable label="Team" rows={team.users} rowKey={(u) => u.id} rowLabel={(u) => u.name}
          rowClass={(u) => (u.id === managing ? 'selected' : undefined)} columns={[
            { label: 'Name', kind: 'title', cell: (u) => <>{u.name}{u.id === me?.id && <span className="muted"> (you)</span>}</> },
            { label: 'Email', cell: (u) => u.email },
            { label: 'Role', cell: (u) => roleLabel(u.role) },
            { label: 'Status', cell: (u) => <span className={`badge ${STATUS_CLASS[statusLabel(u)]}`}>{statusLabel(u)}</span> },
            isAdmin && {
              label: 'Actions', kind: 'actions', cell: (u) => (
                <div className="row-actions">
                  <button type="button" aria-label={`Manage ${u.name}`} onClick={() => {
                    setManaging(u.id);
                    window.scrollTo({ top: 0 });
                  }}>Manage</button>
                </div>
              ),
            },
          ]} />
      )}
    </section>
  );
}
