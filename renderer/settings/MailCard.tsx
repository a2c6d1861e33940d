import { useState, type FormEvent } from 'react';
import type { Account } from '../../shared/resources/account.js';
import { api } from '../api/client.js';
import { formErrorsOf, refusalText } from '../api/formErrors.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { useSession } from '../session/sessionStore.js';
import './mail.css';

type Security = 'starttls' | 'tls';

interface Server {
  host: string;
  port: string;
  security: Security;
  user: string;
  password: string;
}

const BLANK: Server = { host: '', port: '587', security: 'starttls', user: '', password: '' };
const DEFAULT_PORT: Record<Security, string> = { starttls: '587', tls: '465' };
const LABELS = { smtp_url: 'Mail server', to: 'Send to' };

/**
 * `smtp_url` from the form: `smtp://` upgrades with STARTTLS, `smtps://` is
 * TLS from the start; the user and password are percent-encoded so any
 * character works.
 */
function smtpUrl(server: Server): string {
  const scheme = server.security === 'tls' ? 'smtps' : 'smtp';
  const login = server.user ? `${encodeURIComponent(server.user)}:${encodeURIComponent(server.password)}@` : '';
  return `${scheme}://${login}${server.host.trim()}:${server.port.trim() || DEFAULT_PORT[server.security]}`;
}

/**
 * The mail server sequences send through (admins only). The hub never
 * answers the server's settings back, since they hold its password: a set
 * server shows as "A mail server is set", and changing it means entering
 * them all again. "Send a test email" tries the saved settings and tells the
 * outcome in words (the server's own answer when it refuses).
 */
export function MailCard({ account }: { account: Account }) {
  const [editing, setEditing] = useState(false);
  const save = async (url: string | null) => {
    const updated = await api.update<Account>('/v2/accounts/self', { smtp_url: url });
    useSession.setState({ account: updated });
    setEditing(false);
  };

  return (
    <section className="card mail-settings" aria-label="Mail">
      <h2>Mail</h2>
      <p className="muted">The mail server that sequences send their emails through.</p>
      {!editing && (
        <div className="actions">
          <span role="status">{account.smtp_configured ? 'A mail server is set. Its password is set and never shown.' : 'Sending is off: no mail server is set.'}</span>
        </div>
      )}
      {!editing && (
        <div className="actions">
          <button type="button" onClick={() => setEditing(true)}>{account.smtp_configured ? 'Change mail server' : 'Set a mail server'}</button>
          {account.smtp_configured && <TurnOff onTurnOff={() => save(null)} />}
        </div>
      )}
      {editing && <ServerForm replacing={account.smtp_configured} onSave={save} onCancel={() => setEditing(false)} />}
      {account.smtp_configured && !editing && <TestEmailForm />}
    </section>
  );
}

function TurnOff({ onTurnOff }: { onTurnOff(): Promise<void> }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <button type="button" onClick={() => void onTurnOff().catch((err: unknown) => setError(refusalText(err, 'Sending could not be turned off.')))}>Turn sending off</button>
      {error && <p className="form-error" role="alert">{error}</p>}
    </>
  );
}

function ServerForm({ replacing, onSave, onCancel }: { replacing: boolean; onSave(url: string): Promise<void>; onCancel(): void }) {
  const [server, setServer] = useState<Server>(BLANK);
  const change = (patch: Partial<Server>) => setServer({ ...server, ...patch });

  const { saving, errors, setErrors, run } = useFormSubmit({
    // The API checks the URL as a whole: its problem goes under the server's name.
    errorsOf: (err) => {
      const found = formErrorsOf(err, LABELS, 'The mail server could not be saved.');
      return found.smtp_url ? { host: found.smtp_url } : found;
    },
  }, () => onSave(smtpUrl(server)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!server.host.trim()) return setErrors({ host: 'Server is required: the mail server\'s name, such as smtp.example.com.' });
    void run();
  };

  const input = (key: keyof Server, label: string, type = 'text', extra: Record<string, string> = {}) => (
    <div className={`field${key === 'host' ? ' grow' : ''}${errors[key] ? ' invalid' : ''}`}>
      <label>
        {label}
        <input type={type} value={server[key]} onChange={(e) => change({ [key]: e.target.value })} aria-invalid={Boolean(errors[key])} {...extra} />
      </label>
      {errors[key] && <span className="field-error" role="alert">{errors[key]}</span>}
    </div>
  );

  return (
    <form className="mail-server-form" aria-label="Mail server" onSubmit={submit} noValidate>
      {replacing && <p className="muted">Enter the server&apos;s settings again: they replace the ones set now.</p>}
      <div className="inline-form">
        {input('host', 'Server', 'text', { placeholder: 'smtp.example.com' })}
        {input('port', 'Port', 'text', { inputMode: 'numeric', className: 'port' })}
        <div className="field">
          <label>
            Security
            <select value={server.security} onChange={(e) => {
              const security = e.target.value as Security;
              change({ security, port: server.port === DEFAULT_PORT[server.security] ? DEFAULT_PORT[security] : server.port });
            }}>
              <option value="starttls">STARTTLS</option>
              <option value="tls">TLS</option>
            </select>
          </label>
        </div>
      </div>
      <div className="inline-form">
        {input('user', 'User name', 'text', { autoComplete: 'off' })}
        {input('password', 'Password', 'password', { autoComplete: 'new-password' })}
      </div>
      {errors._ && <p className="form-error" role="alert">{errors._}</p>}
      <div className="actions">
        <button type="submit" className="primary" disabled={saving}>{saving ? 'Saving…' : 'Save mail server'}</button>
        <button type="button" onClick={onCancel} disabled={saving}>Cancel</button>
      </div>
    </form>
  );
}

function TestEmailForm() {
  const me = useSession((s) => s.user);
  const [to, setTo] = useState(me?.email ?? '');
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSending(true);
    setOutcome(null);
    try {
      await api.action<{ sent: boolean }>('/v2/accounts/self/test_email', { to: to.trim() });
      setOutcome({ ok: true, text: `Sent to ${to.trim()}: the mail server accepted it. Check that inbox.` });
    } catch (err) {
      const found = formErrorsOf(err, LABELS, 'The test email could not be sent.');
      setOutcome({ ok: false, text: Object.values(found).join(' ') });
    } finally {
      setSending(false);
    }
  };

  return (
    <form className="test-email" aria-label="Send a test email" onSubmit={(e) => void submit(e)} noValidate>
      <div className="inline-form">
        <div className="field grow">
          <label>
            Send to
            <input type="email" value={to} onChange={(e) => setTo(e.target.value)} />
          </label>
        </div>
        <button type="submit" disabled={sending}>{sending ? 'Sending…' : 'Send a test email'}</button>
      </div>
      {outcome && <p className={outcome.ok ? 'success' : 'form-error'} role={outcome.ok ? 'status' : 'alert'}>{outcome.text}</p>}
    </form>
  );
}
