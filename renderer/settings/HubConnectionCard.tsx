import { useEffect, useState, type FormEvent } from 'react';
import { api, ApiFailure } from '../api/client.js';

interface HubConnection {
  hub_url: string | null;
  connected: boolean;
}

/**
 * Desktop app only: connect this computer's Outpost to the team's hub. The
 * hub's sign-in opens in the system browser; the main process keeps the
 * tokens (encrypted by the OS) and restarts as a replica of the hub.
 */
export function HubConnectionCard() {
  const [connection, setConnection] = useState<HubConnection | null>(null);
  const [hubUrl, setHubUrl] = useState('');
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
      setConnection(await api.create<HubConnection>('/v2/desktop/hub', { hub_url: hubUrl.trim() }));
    } catch (err) {
      setError(err instanceof ApiFailure ? err.message : 'The hub could not be reached.');
    } finally {
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
          <button type="submit" className="primary" disabled={busy}>{busy ? 'Signing in in your browser…' : 'Connect'}</button>
          {error && <p className="form-error" role="alert">{error}</p>}
        </form>
      )}
    </section>
  );
}
