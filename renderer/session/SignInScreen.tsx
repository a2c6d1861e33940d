import { useEffect, useState, type FormEvent } from 'react';
import { useSession } from './sessionStore.js';
import { canKeepDataHere } from '../local/localMode.js';

export function SignInScreen() {
  const signIn = useSession((s) => s.signIn);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sharedComputer, setSharedComputer] = useState(false);
  // Asked once before the form shows, so what it offers does not change under the person's hands.
  const [canKeep, setCanKeep] = useState<boolean | null>(null);
  useEffect(() => void canKeepDataHere().then(setCanKeep), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(await signIn(email.trim(), password, { keepData: Boolean(canKeep) && !sharedComputer }));
    setBusy(false);
  };

  if (canKeep === null) return <main className="sign-in" aria-busy="true" />;
  return (
    <main className="sign-in">
      <form className="card sign-in-card" onSubmit={submit} aria-label="Sign in">
        <h1 className="brand">Outpost</h1>
        <p className="muted">Sign in to your team's hub</p>
        <label>
          Email
          <input type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} required autoFocus />
        </label>
        <label>
          Password
          <input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
        </label>
        {canKeep && (
          <>
            <label className="check">
              <input type="checkbox" checked={sharedComputer} onChange={(e) => setSharedComputer(e.target.checked)} aria-describedby="shared-computer-hint" />
              Shared computer
            </label>
            <p id="shared-computer-hint" className="muted sign-in-hint">
              {sharedComputer ? 'Nothing is kept on this device: the app needs the hub to work.' : 'Your data is kept on this device, so the app works offline. Sign out to remove it.'}
            </p>
          </>
        )}
        {problem && <p className="form-error" role="alert">{problem}</p>}
        <button type="submit" className="primary" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
    </main>
  );
}
