import { useState, type FormEvent } from 'react';
import { useSession } from './sessionStore.js';

export function SignInScreen() {
  const signIn = useSession((s) => s.signIn);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(await signIn(email.trim(), password));
    setBusy(false);
  };

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
        {problem && <p className="form-error" role="alert">{problem}</p>}
        <button type="submit" className="primary" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
    </main>
  );
}
