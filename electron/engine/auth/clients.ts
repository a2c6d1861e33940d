import { timingSafeEqual } from '../platform/crypto.js';
import { utf8Bytes } from '../bytes.js';
import type { EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { newToken, tokenHash } from './tokens.js';
import { FieldErrors, notFound } from '../problems.js';
import { jsonBool, jsonObject } from '../db/sqlJson.js';
import { FIRST_PARTY_APP_REDIRECT_URI, FIRST_PARTY_CLIENT_ID, FIRST_PARTY_REDIRECT_URI } from '../../../shared/oauth.js';

export interface OAuthClient {
  client_id: string;
  name: string;
  secret_hash: string | null;
  redirect_uri: string | null;
  first_party: number;
  public: number;
}

export interface NewClient {
  name: string;
  redirect_uri: string;
  /** A native or browser app that cannot keep a secret: no secret, PKCE required. */
  public?: boolean;
}

/** What registering a client answers, once: the secret is never shown again. */
export interface RegisteredClient {
  client_id: string;
  client_secret: string | null;
  redirect_uri: string;
}

const CLIENT_JSON = jsonObject({
  client_id: 'c.client_id', name: 'c.name', redirect_uri: 'c.redirect_uri', public: jsonBool('c.public'), created_at: 'c.created_at',
});

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'blob:', 'vbscript:', 'about:']);
/** `outpost:`, the scheme the installed desktop app registers with the OS. */
const APP_SCHEME = new URL(FIRST_PARTY_APP_REDIRECT_URI).protocol;

/**
 * Registered OAuth applications. Secrets are 256 random bits, stored only as
 * SHA-256 hashes and compared in constant time. The built-in client of the
 * web UI and desktop app is public and cannot be removed.
 */
export class OAuthClients {
  constructor(private readonly ctx: EngineContext) {}

  /** The built-in public client of the web UI and the desktop app; created on first open. */
  ensureFirstParty(): void {
    this.ctx.db
      .prepare(`INSERT INTO oauth_clients (client_id, name, secret_hash, redirect_uri, first_party, public, created_at) VALUES (?, ?, NULL, ?, 1, 1, ?)
        ON CONFLICT (client_id) DO UPDATE SET redirect_uri = excluded.redirect_uri`)
      .run(FIRST_PARTY_CLIENT_ID, 'Outpost app', FIRST_PARTY_REDIRECT_URI, isoSeconds(this.ctx.clock.now()));
  }

  register(input: NewClient): RegisteredClient {
    const errors = new FieldErrors('oauth_client');
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (!name) errors.add('/name', input.name === undefined ? 'missing' : 'blank', 'name is required.');
    else if (name.length > 255) errors.add('/name', 'incorrect_value', 'name must be at most 255 characters.');
    const problem = redirectUriProblem(input.redirect_uri);
    if (problem) errors.add('/redirect_uri', input.redirect_uri === undefined ? 'missing' : 'incorrect_value', problem);
    errors.throwIfAny();
    const clientId = newToken();
    const secret = input.public ? null : newToken();
    this.ctx.db
      .prepare('INSERT INTO oauth_clients (client_id, name, secret_hash, redirect_uri, first_party, public, created_at) VALUES (?, ?, ?, ?, 0, ?, ?)')
      .run(clientId, name, secret === null ? null : tokenHash(secret), input.redirect_uri, input.public ? 1 : 0, isoSeconds(this.ctx.clock.now()));
    return { client_id: clientId, client_secret: secret, redirect_uri: input.redirect_uri };
  }

  /** Registered third-party clients as JSON texts, in registration order (the built-in client is not listed). */
  listJson(): string[] {
    return this.ctx.db.prepare(`SELECT ${CLIENT_JSON} FROM oauth_clients c WHERE c.first_party = 0 ORDER BY c.created_at, c.rowid`).pluck().all() as string[];
  }

  json(clientId: string): string {
    const json = this.ctx.db.prepare(`SELECT ${CLIENT_JSON} FROM oauth_clients c WHERE c.client_id = ? AND c.first_party = 0`).pluck().get(clientId) as string | undefined;
    if (json === undefined) throw notFound('oauth_client', clientId);
    return json;
  }

  /** Removes a client; its codes and tokens go with it. */
  remove(clientId: string): void {
    const { changes } = this.ctx.db.prepare('DELETE FROM oauth_clients WHERE client_id = ? AND first_party = 0').run(clientId);
    if (changes === 0) throw notFound('oauth_client', clientId);
  }

  find(clientId: string): OAuthClient | undefined {
    return this.ctx.db.prepare('SELECT * FROM oauth_clients WHERE client_id = ?').get(clientId) as OAuthClient | undefined;
  }

  /** The client whose credentials these are, or null. A public client authenticates with an empty secret. */
  authenticate(clientId: string, secret: string): OAuthClient | null {
    const client = this.find(clientId);
    if (!client) return null;
    if (client.secret_hash === null) return secret === '' ? client : null;
    return timingSafeEqual(utf8Bytes(tokenHash(secret)), utf8Bytes(client.secret_hash)) ? client : null;
  }
}

/**
 * Whether `given` is the client's registered redirect URI: the same string,
 * except that a loopback http URI may use any port (RFC 8252 §7.3: a native
 * app listens on whatever port is free). The built-in client also has the
 * installed desktop app's `outpost://oauth/callback` (RFC 8252 §7.1); no other
 * client may send anyone to the `outpost:` scheme, whatever it registered:
 * the OS would hand its codes to the Outpost app.
 */
export function redirectUriMatches(client: OAuthClient, given: string | undefined): boolean {
  if (given === undefined) return false;
  if (parse(given)?.protocol === APP_SCHEME) return client.first_party === 1 && given === FIRST_PARTY_APP_REDIRECT_URI;
  if (!client.redirect_uri) return false;
  if (given === client.redirect_uri) return true;
  const [registered, asked] = [parse(client.redirect_uri), parse(given)];
  if (!registered || !asked || registered.protocol !== 'http:' || !LOOPBACK_HOSTS.has(registered.hostname)) return false;
  const withoutPort = (u: URL) => `${u.protocol}//${u.hostname}${u.pathname}${u.search}`;
  return asked.protocol === 'http:' && withoutPort(asked) === withoutPort(registered);
}

/** Why a redirect URI cannot be registered, or null (RFC 6749 §3.1.2, RFC 8252 §7). */
export function redirectUriProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return 'redirect_uri is required: the URL the user is sent back to.';
  const url = parse(value);
  if (!url || value.length > 2048) return 'redirect_uri must be an absolute URL.';
  if (url.hash || value.includes('#')) return 'redirect_uri must not have a fragment.';
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `redirect_uri cannot use the ${url.protocol} scheme.`;
  // A native app's own private-use scheme is fine (RFC 8252 §7.1), but not the one of Outpost's desktop app.
  if (url.protocol === APP_SCHEME) return `redirect_uri cannot use the ${APP_SCHEME} scheme: it opens the Outpost desktop app, not yours.`;
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) return 'redirect_uri must use https (plain http only for 127.0.0.1, [::1] or localhost).';
  return null;
}

function parse(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
