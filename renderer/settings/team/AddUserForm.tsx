import { useState, type ReactNode } from 'react';
import type { User } from '../../../shared/resources/user.js';
import { useFormSubmit } from '../../api/useFormSubmit.js';
import { USER_LABELS } from './words.js';
import type { InviteLink, NewUserInput } from './useTeam.js';

type Access = 'password' | 'invite';

interface Props {
  onAdd(input: NewUserInput): Promise<{ user: User; invite: InviteLink | null }>;
  onAdded(user: User, invite: InviteLink | null): void;
  onCancel(): void;
}

/**
 * Add a user: name, email, role, and either a password set now (they can
 * sign in at once) or a one-time invite link (they choose one). The API's
 * field errors appear by their fields, in the form's words.
 */
export function AddUserForm({ onAdd, onAdded, onCancel }: Props) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<User['role']>('user');
  const [access, setAccess] = useState<Access>('invite');
  const [password, setPassword] = useState('');

  const { saving, errors, submit } = useFormSubmit({ labels: USER_LABELS, failure: 'The user could not be added.', stays: true }, async () => {
    const input: NewUserInput = { name: name.trim(), email: email.trim(), role, ...(access === 'password' ? { password } : {}) };
    const { user, invite } = await onAdd(input);
    onAdded(user, invite);
  });

  const field = (key: keyof typeof errors, control: ReactNode) => (
    <div className={`field grow${errors[key] ? ' invalid' : ''}`}>
      {control}
      {errors[key] && <span className="field-error" role="alert">{errors[key]}</span>}
    </div>
  );

  return (
    <form className="card add-user" aria-label="Add a user" onSubmit={submit} noValidate>
      <h2>Add a user</h2>
      <div className="inline-form">
        {field('name', <label>Name<input type="text" value={name} autoFocus onChange={(e) => setName(e.target.value)} aria-invalid={Boolean(errors.name)} /></label>)}
        {field('email', <label>Email<input type="email" value={email} onChange={(e) => setEmail(e.target.value)} aria-invalid={Boolean(errors.email)} /></label>)}
        {field('role', (
          <label>
            Role
            <select value={role} onChange={(e) => setRole(e.target.value as User['role'])} aria-invalid={Boolean(errors.role)}>
              <option value="user">Agent</option>
              <option value="admin">Administrator</option>
            </select>
          </label>
        ))}
      </div>
      <fieldset className="choice">
        <legend>How they sign in</legend>
        <label><input type="radio" name="access" checked={access === 'invite'} onChange={() => setAccess('invite')} />Send an invite link (they choose a password)</label>
        <label><input type="radio" name="access" checked={access === 'password'} onChange={() => setAccess('password')} />Set a password</label>
      </fieldset>
      {access === 'password' && (
        <div className="inline-form password-row">
          {field('password', (
            <label>Password<input type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} aria-invalid={Boolean(errors.password)} /></label>
          ))}
        </div>
      )}
      {errors._ && <p className="form-error" role="alert">{errors._}</p>}
      <div className="actions">
        <button type="submit" className="primary" disabled={saving}>{saving ? 'Adding…' : 'Add user'}</button>
        <button type="button" onClick={onCancel} disabled={saving}>Cancel</button>
      </div>
    </form>
  );
}
