// The desktop app's own endpoints for its hub connection (settings → Hub),
// served by the in-process engine app only in the desktop app: the renderer
// asks over the same REST bridge as everything else, the main process does
// the sign-in (browser or password) and keeps the credentials; tokens never reach the renderer.
// Pure Node: main.ts supplies shell.openExternal, the credential store and a restart.
import type { FastifyInstance } from 'fastify';
import { HubSignInError, signInThroughBrowser, signInWithPassword, type AppRedirects } from './hubSignIn.js';
import type { CredentialStore } from './credentialStore.js';
import { LOCAL_TO_REPLICA } from '../engine/http/routes/replica.js';

export interface HubRoutesOptions {
  openBrowser(url: string): Promise<void>;
  /** Given when the OS opens this app for `outpost:` links: the browser sign-in redirects there instead of to a loopback port. */
  appRedirects?: AppRedirects;
  credentials: CredentialStore;
  /** Restarts the app so the engine opens as a replica of the hub (or stops being one). */
  restart(): void;
  fetch?: typeof fetch;
}

const json = (data: object) => JSON.stringify({ data, meta: { type: 'desktop_hub' } });
const failure = (status: number, code: string, field: string, message: string) =>
  JSON.stringify({ errors: [{ error: { resource: 'desktop_hub', field, code, message, details: message }, meta: { type: 'error', links: {} } }], meta: { type: 'errors', http_status: String(status), logref: '', links: {} } });

export function hubRoutes(app: FastifyInstance, options: HubRoutesOptions): void {
  app.get('/v2/desktop/hub', async (_request, reply) => {
    const saved = options.credentials.load();
    return reply.type('application/json; charset=utf-8').send(json({ hub_url: saved?.hubUrl ?? null, connected: saved !== null }));
  });

  // Connect: the hub's sign-in opens in the system browser (or, given `email` and
  // `password`, the hub checks them directly); on success the app restarts as the hub's replica.
  app.post('/v2/desktop/hub', { config: LOCAL_TO_REPLICA }, async (request, reply) => {
    const data = (request.body as { data?: Record<string, unknown> } | null)?.data ?? {};
    const url = typeof data.hub_url === 'string' ? parseHubUrl(data.hub_url) : null;
    if (!url) return reply.code(422).type('application/json; charset=utf-8').send(failure(422, 'incorrect_value', '/hub_url', 'hub_url must be the hub’s address, starting with https:// (or http:// on this computer or a local network).'));
    const withPassword = data.email !== undefined || data.password !== undefined;
    if (withPassword && (typeof data.email !== 'string' || typeof data.password !== 'string' || !data.email.trim() || !data.password)) {
      return reply.code(422).type('application/json; charset=utf-8').send(failure(422, 'missing', typeof data.email === 'string' && data.email.trim() ? '/password' : '/email', 'Give both the email and the password of your hub account.'));
    }
    try {
      const tokens = withPassword
        ? await signInWithPassword({ hubUrl: url, email: (data.email as string).trim(), password: data.password as string, fetch: options.fetch })
        : await signInThroughBrowser({ hubUrl: url, openBrowser: options.openBrowser, appRedirects: options.appRedirects, fetch: options.fetch });
      const self = await (options.fetch ?? fetch)(`${url}/v2/users/self`, { headers: { Authorization: `Bearer ${tokens.access_token}`, Accept: 'application/json' } });
      const user = ((await self.json()) as { data: { id: number } & Record<string, unknown> }).data;
      const kept = options.credentials.save({ hubUrl: url, access_token: tokens.access_token, refresh_token: tokens.refresh_token ?? null, user });
      setImmediate(() => options.restart());
      return reply.type('application/json; charset=utf-8').send(json({ hub_url: url, connected: true, remembered: kept }));
    } catch (err) {
      const message = err instanceof HubSignInError ? err.message : `The hub at ${url} could not be reached: ${(err as Error).message}`;
      return reply.code(422).type('application/json; charset=utf-8').send(failure(422, 'incorrect_value', '/hub_url', message));
    }
  });

  // Disconnect: the credentials are forgotten; the local data stays.
  app.delete('/v2/desktop/hub', { config: LOCAL_TO_REPLICA }, async (_request, reply) => {
    options.credentials.clear();
    setImmediate(() => options.restart());
    return reply.code(204).send();
  });
}

function parseHubUrl(text: string): string | null {
  try {
    const url = new URL(text.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}
