import { useEffect, useState, type FormEvent } from 'react';
import { useSession } from '../../session/sessionStore.js';
import { useRouter } from '../../router/routerStore.js';
import './team.css';

interface Holder {
  email: string;
  name: string;
  invited: boolean;
}

type Answer<T> = { ok: true; body: T } | { ok: false; message: string };

/** The hub's public invitation endpoints (no token: the person is not signed in), whose errors are OAuth-style. */
async function post<T>(path: string, form: Record<string, string>): Promise<Answer<T>> {
  try {
    const response = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(form) });
    const body = await response.json();
    return response.ok ? { ok: true, body: body as T } : { ok: false, message: body.error_description ?? 'The link could not be used.' };
  } catch {
    return { ok: false, message: 'The hub cannot be reached: try again in a moment.' };
  }
}

/**
 * `/invite/<token>`: a one-time link from an administrator (an invitation or
 * a password reset). The person chooses a password (twice), and is then
 * signed in with it. Shown signed in or not: someone signed in is told that
 * they will be signed in as the link's person instead.
 */
export function AcceptInviteScreen({ token }: { token: string }) {
  const { user: current, signIn } = useSession();
  const navigate = useRouter((s) => s.navigate);
  const [holder, setHolder] = useState<Holder | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void post<Holder>('/oauth2/invitations/lookup', { token }).then((answer) => (answer.ok ? setHolder(answer.body) : setProblem(answer.message)));
  }, [token]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== repeat) return setProblem('The two passwords are not the same.');
    setBusy(true);
    const answer = await post<Holder>('/oauth2/invitations/accept', { token, password });
    if (!answer.ok) {
      setProblem(answer.message);
      setBusy(false);
      return;
    }
    const failed = await signIn(answer.body.email, password);
    setBusy(false);
    if (failed) setProblem(`Your password is set, but signing in failed: ${failed}`);
    else navigate('/', { replace: true });
  };

  return (
    <main className="sign-in">
      <form className="card sign-in-card accept-invite" onSubmit={(e) => void submit(e)} aria-label="Choose a password" noValidate>
        <h1 className="brand">Outpost</h1>
        {holder === null && !problem && <p className="muted">Checking the link…</p>}
        {holder && <>
          <p>{holder.invited ? `Welcome, ${holder.name}. Choose a password to join your team.` : `Choose a new password, ${holder.name}.`}</p>
          <p className="muted">You sign in with {holder.email}.</p>
          {current && current.email !== holder.email && <p className="notice" role="note">You are signed in as {current.email}: you will be signed in as {holder.email} instead.</p>}
          <label>
            New password
            <input type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} required autoFocus />
          </label>
          <label>
            Repeat the password
            <input type="password" autoComplete="new-password" value={repeat} onChange={(e) => setRepeat(e.target.value)} required />
          </label>
          <p className="muted">At least 8 characters.</p>
        </>}
        {problem && <p className="form-error" role="alert">{problem}</p>}
        {holder && <button type="submit" className="primary" disabled={busy || password === ''}>{busy ? 'Saving…' : 'Set password and sign in'}</button>}
        {!holder && problem && <a href="/login">Go to sign-in</a>}
      </form>
    </main>
  );
}
