import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../api/client.js';
import { refusalText } from '../api/formErrors.js';

interface HubConnection {
  hub_url: string | null;
  connected: boolean;
}

/**
 * Desktop app only: connect this computer's Outpost to the team's hub. The
 * hub's sign-in opens in the system browser (or the hub account's email and
 * password are checked by the hub); the main process keeps the tokens
 * (encrypted by the OS), never the password, and restarts as a replica of the hub.
 */
export function HubConnectionCard() {
  const [connection, setConnection] = useState<HubConnection | null>(null);
  const [hubUrl, setHubUrl] = useState('');
  const [method, setMethod] = useState<'browser' | 'password'>('browser');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api.get<HubConnection>('/v2/desktop/hub').then(setConnection, () => setConnection(null));
  }, []);

  const connect = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const account = method === 'password' ? { email: email.trim(), password } : {};
      setConnection(await api.create<HubConnection>('/v2/desktop/hub', { hub_url: hubUrl.trim(), ...account }));
    } catch (err) {
      setError(refusalText(err, 'The hub could not be reached.'));
    } finally {
      setPassword('');
      setBusy(false);
    }
  };

  if (!connection) return null;
  return (
    <section className="card" aria-label="Hub">
      <h2>Team hub</h2>
      {connection.connected ? (
        <p>
          Connected to <strong>{connection.hub_url}</strong>: your changes sync when you are online.{' '}
          <button type="button" className="link" onClick={() => void api.remove('/v2/desktop/hub')}>Disconnect</button>
        </p>
      ) : (
        <form className="inline-form" onSubmit={(e) => void connect(e)}>
          <label>
            Hub address
            <input type="url" required placeholder="https://crm.example.com" value={hubUrl} onChange={(e) => setHubUrl(e.target.value)} />
          </label>
          <fieldset className="choice">
            <legend>Sign in</legend>
            <label><input type="radio" name="hub-sign-in" checked={method === 'browser'} onChange={() => setMethod('browser')} /> In my browser (recommended)</label>
            <label><input type="radio" name="hub-sign-in" checked={method === 'password'} onChange={() => setMethod('password')} /> With my hub email and password</label>
          </fieldset>
          {method === 'password' && (
            <>
              <label>
                Hub email
                <input type="email" required autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
              </label>
              <label>
                Hub password
                <input type="password" required autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
              </label>
            </>
          )}
          <button type="submit" className="primary" disabled={busy}>{busy ? (method === 'browser' ? 'Signing in in your browser…' : 'Signing in…') : 'Connect'}</button>
          {error && <p className="form-error" role="alert">{error}</p>}
        </form>
      )}
    </section>
  );
}
