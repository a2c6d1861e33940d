import { useEffect, useRef, useState } from 'react';
import type { OAuthClient } from '../../shared/resources/oauthClient.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { ConfirmDelete } from '../shell/ConfirmDelete.js';
import { CopyButton } from '../shell/CopyButton.js';
import { useOAuthClients } from './useOAuthClients.js';

const FORM_LABELS = { name: 'Name', redirect_uri: 'Redirect URI' };
const formatDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/**
 * Registered OAuth applications, for admins: the list with inline removal,
 * the form to register one, and its credentials shown once after adding.
 */
export function OAuthClientsCard() {
  const { clients, loadError, add, remove } = useOAuthClients();
  const [created, setCreated] = useState<OAuthClient | null>(null);

  return (
    <section className="card applications" aria-label="Applications">
      <h2>Applications</h2>
      <p className="muted">
        Programs that sign people in to Outpost with OAuth. Removing one signs it out: its tokens stop working.
      </p>
      {created && <NewCredentials client={created} onDismiss={() => setCreated(null)} />}
      {loadError && <p className="form-error" role="alert">{loadError}</p>}
      {!loadError && clients === null && <p className="muted">Loading…</p>}
      {clients !== null && clients.length === 0 && <p className="muted">No applications are registered.</p>}
      {clients !== null && clients.length > 0 && (
        <ul className="oauth-clients" aria-label="Registered applications">
          {clients.map((c) => (
            <OAuthClientItem key={c.client_id} client={c} onRemove={async () => {
              await remove(c.client_id);
              if (created?.client_id === c.client_id) setCreated(null);
            }} />
          ))}
        </ul>
      )}
      <OAuthClientForm onAdd={async (input) => setCreated(await add(input))} />
    </section>
  );
}

/** One application, with a Remove button that asks for confirmation in place. */
function OAuthClientItem({ client, onRemove }: { client: OAuthClient; onRemove(): Promise<void> }) {
  return (
    <li className="oauth-client" aria-label={client.name}>
      <div className="oauth-client-main">
        <div>
          <strong>{client.name}</strong>{' '}
          {client.public && <span className="badge" title="No secret; signs in with PKCE">public</span>}
          <span className="muted when">added {formatDate(client.created_at)}</span>
        </div>
        <div className="muted">Redirect URI: <span className="uri">{client.redirect_uri}</span></div>
        <div className="muted">Client ID: <code className="token">{client.client_id}</code></div>
      </div>
      <ConfirmDelete name={client.name} question="Its sign-ins and tokens stop working at once." verb="remove" onConfirm={onRemove} />
    </li>
  );
}

/** The client id and secret of an application just added: shown once, until dismissed. */
function NewCredentials({ client, onDismiss }: { client: OAuthClient; onDismiss(): void }) {
  const box = useRef<HTMLDivElement>(null);
  const secret = client.client_secret ?? null;

  useEffect(() => {
    box.current?.focus();
  }, [client]);

  return (
    <div className="secret-box" role="region" aria-label="New application credentials" tabIndex={-1} ref={box}>
      <h3>{client.name} is registered</h3>
      {secret !== null
        ? <p className="warning"><strong>Copy the secret now: it is not shown again.</strong></p>
        : <p>A public client has no secret: it signs in with its client ID and PKCE.</p>}
      <dl className="details">
        <dt>Client ID</dt>
        <dd><code className="token">{client.client_id}</code></dd>
        {secret !== null && <>
          <dt>Client secret</dt>
          <dd><code className="token">{secret}</code></dd>
        </>}
      </dl>
      <div className="actions">
        {secret !== null && <CopyButton text={secret} label="Copy secret" />}
        <button type="button" className="primary" onClick={onDismiss}>{secret !== null ? 'I have copied it' : 'Done'}</button>
      </div>
    </div>
  );
}

/** Register an application; the API's field errors appear by their fields. */
function OAuthClientForm({ onAdd }: { onAdd(input: { name: string; redirect_uri: string; public: boolean }): Promise<void> }) {
  const [name, setName] = useState('');
  const [redirectUri, setRedirectUri] = useState('');
  const [isPublic, setPublic] = useState(false);

  // Name and redirect URI errors go by their fields; anything else (or a refusal without fields) below the form.
  const { saving, errors, submit } = useFormSubmit({ labels: FORM_LABELS, failure: 'The application could not be added.', stays: true }, async () => {
    await onAdd({ name: name.trim(), redirect_uri: redirectUri.trim(), public: isPublic });
    setName('');
    setRedirectUri('');
    setPublic(false);
  });

  return (
    <form className="oauth-client-form" onSubmit={submit} noValidate aria-label="Add an application">
      <h3>Add an application</h3>
      <div className="inline-form">
        <div className={`field grow${errors.name ? ' invalid' : ''}`}>
          <label>
            Name
            <input type="text" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={Boolean(errors.name)} />
          </label>
          {errors.name && <span className="field-error" role="alert">{errors.name}</span>}
        </div>
        <div className={`field grow${errors.redirect_uri ? ' invalid' : ''}`}>
          <label>
            Redirect URI
            <input type="url" value={redirectUri} placeholder="https://app.example/callback" onChange={(e) => setRedirectUri(e.target.value)}
              aria-invalid={Boolean(errors.redirect_uri)} />
          </label>
          {errors.redirect_uri && <span className="field-error" role="alert">{errors.redirect_uri}</span>}
        </div>
      </div>
      <div className="inline-form submit-row">
        <label className="check">
          <input type="checkbox" checked={isPublic} onChange={(e) => setPublic(e.target.checked)} />
          Public client (no secret; PKCE)
        </label>
        <button type="submit" className="primary" disabled={saving}>{saving ? 'Adding…' : 'Add application'}</button>
      </div>
      {errors._ && <p className="form-error" role="alert">{errors._}</p>}
    </form>
  );
}
