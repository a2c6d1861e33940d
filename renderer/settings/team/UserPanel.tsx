import { useState, type FormEvent } from 'react';
import type { User } from '../../../shared/resources/user.js';
import { formErrorsOf, refusalText } from '../../api/formErrors.js';
import { ConfirmAction } from './ConfirmAction.js';
import { InviteLinkBox } from './InviteLinkBox.js';
import { roleLabel, statusLabel, USER_LABELS } from './words.js';
import type { InviteLink, TeamState } from './useTeam.js';

interface Props {
  user: User;
  isSelf: boolean;
  team: Pick<TeamState, 'change' | 'newLink'>;
  onClose(): void;
}

/** One person, for an admin: their role, whether they may sign in, and their password. */
export function UserPanel({ user, isSelf, team, onClose }: Props) {
  return (
    <section className="card user-panel" aria-label={`Manage ${user.name}`}>
      <header className="user-panel-header">
        <div>
          <h2>{user.name}{isSelf && <span className="muted"> (you)</span>}</h2>
          <p className="muted">{user.email} · {roleLabel(user.role)} · {statusLabel(user)}</p>
        </div>
        <button type="button" onClick={onClose}>Close</button>
      </header>
      <RoleForm user={user} team={team} />
      <Access user={user} team={team} />
      <Password user={user} team={team} />
    </section>
  );
}

function RoleForm({ user, team }: Pick<Props, 'user' | 'team'>) {
  const [role, setRole] = useState(user.role);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    try {
      await team.change(user.id, { role });
      setError(null);
      setSaved(true);
    } catch (err) {
      setError(refusalText(err, 'The role could not be changed.'));
    }
  };

  return (
    <form className="user-panel-row" aria-label="Change role" onSubmit={(e) => void submit(e)}>
      <h3>Role</h3>
      <div className="inline-form role-row">
        <select aria-label="Role" value={role} onChange={(e) => {
          setRole(e.target.value as User['role']);
          setSaved(false);
        }}>
          <option value="user">Agent</option>
          <option value="admin">Administrator</option>
        </select>
        <button type="submit" disabled={role === user.role}>Change role</button>
        {saved && <span className="muted" role="status">Role changed to {roleLabel(user.role)}.</span>}
      </div>
      <p className="muted">Administrators manage the team and the account&apos;s settings; agents work with the records.</p>
      {error && <p className="form-error" role="alert">{error}</p>}
    </form>
  );
}

function Access({ user, team }: Pick<Props, 'user' | 'team'>) {
  const active = user.status === 'active';
  return (
    <div className="user-panel-row" role="group" aria-label="Access">
      <h3>Access</h3>
      <p className="muted">
        {active ? 'Deactivating signs them out everywhere and stops their sign-ins; their records stay.' : 'Deactivated: they cannot sign in. Reactivating lets them sign in again.'}
      </p>
      {active
        ? <ConfirmAction label="Deactivate" name={user.name} danger question={`Deactivate ${user.name}? They are signed out at once.`}
          onConfirm={async () => void (await team.change(user.id, { status: 'inactive' }))} />
        : <ConfirmAction label="Reactivate" name={user.name} question={`Reactivate ${user.name}? They can sign in again.`}
          onConfirm={async () => void (await team.change(user.id, { status: 'active' }))} />}
    </div>
  );
}

function Password({ user, team }: Pick<Props, 'user' | 'team'>) {
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const [link, setLink] = useState<InviteLink | null>(null);
  const invited = user.invited && !user.confirmed;

  const setOne = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    try {
      await team.change(user.id, { password });
      setPassword('');
      setErrors({});
      setSaved(true);
    } catch (err) {
      setErrors(formErrorsOf(err, USER_LABELS, 'The password could not be set.'));
    }
  };

  const makeLink = async () => {
    try {
      setLink(await team.newLink(user.id));
      setErrors({});
    } catch (err) {
      setErrors({ _: refusalText(err, 'No link could be made.') });
    }
  };

  return (
    <form className="user-panel-row" aria-label="Change password" onSubmit={(e) => void setOne(e)} noValidate>
      <h3>Password</h3>
      <p className="muted">
        {invited ? 'They have not chosen a password yet. Send a fresh invite link, or set one for them.' : 'Set a new password for them, or send a one-time link to choose one. Either signs them out of other sessions.'}
      </p>
      <div className="inline-form">
        <div className={`field grow${errors.password ? ' invalid' : ''}`}>
          <label>
            New password
            <input type="password" autoComplete="new-password" value={password} onChange={(e) => {
              setPassword(e.target.value);
              setSaved(false);
              // What was refused is no longer there.
              setErrors(({ password: _refused, ...rest }) => rest);
            }} aria-invalid={Boolean(errors.password)} />
          </label>
          {errors.password && <span className="field-error" role="alert">{errors.password}</span>}
        </div>
        <button type="submit" disabled={password === ''}>Set password</button>
        {user.status === 'active' && (
          <button type="button" onClick={() => void makeLink()}>{invited ? 'New invite link' : 'Send a reset link'}</button>
        )}
      </div>
      {saved && <p className="muted" role="status">The password is set.</p>}
      {errors._ && <p className="form-error" role="alert">{errors._}</p>}
      {link && <InviteLinkBox title={`A one-time link for ${user.name}`} link={link} onDismiss={() => setLink(null)} />}
    </form>
  );
}
