import { FIRST_PARTY_CLIENT_ID } from '../../../shared/oauth.js';
import { hubFetch, type HubFetch } from './hubFetch.js';
import { toBase64, utf8Bytes } from '../bytes.js';
import type { Db } from '../db/database.js';

/** The scopes a replica asks the hub for: read and change data, its own profile, and sync. */
export const REPLICA_SCOPE = 'read write profile sync';

/**
 * The replica's credentials at its hub: an access token, and the refresh
 * token that renews it (none for a personal access token given on the
 * command line, which does not expire). Kept in memory by the process that
 * runs the replica; the renderer never sees them.
 */
export class UpstreamCredentials {
  /** Called with the new tokens after the first sign-in and each renewal (kept for the next start). */
  onNewTokens: ((access: string, refresh: string | null) => void) | null = null;
  /** Called when the hub refuses the refresh token (revoked, expired, its user deactivated): the session is over. */
  onRefused: (() => void) | null = null;

  constructor(private readonly hubUrl: string, private access: string | null = null, private refreshToken: string | null = null, private readonly fetchFn: HubFetch = hubFetch) {}

  get token(): string | null {
    return this.access;
  }

  /**
   * Signs in to the hub with the built-in client's password grant. Resolves
   * with the hub's user, or null for a wrong email or password; rejects when
   * the hub cannot be reached. The first successful sign-in connects the replica.
   */
  async signIn(email: string, password: string): Promise<{ user: Record<string, unknown> & { id: number }; message?: string } | { user: null; message: string }> {
    const answer = await this.tokenRequest({ grant_type: 'password', username: email, password, scope: REPLICA_SCOPE });
    if (!answer.ok) return { user: null, message: answer.body.error_description ?? 'The hub refused the sign-in.' };
    const self = await this.fetchFn(`${this.base}/v2/users/self`, { headers: { Authorization: `Bearer ${answer.body.access_token}`, Accept: 'application/json' } });
    const user = ((await self.json()) as { data: Record<string, unknown> & { id: number } }).data;
    if (this.access === null) {
      this.access = answer.body.access_token;
      this.refreshToken = answer.body.refresh_token ?? null;
      this.onNewTokens?.(this.access, this.refreshToken);
    }
    return { user };
  }

  /** A new access token from the refresh token (after a 401); false when there is none or the hub refused it. */
  async renew(): Promise<boolean> {
    if (!this.refreshToken) return false;
    const answer = await this.tokenRequest({ grant_type: 'refresh_token', refresh_token: this.refreshToken });
    if (!answer.ok) {
      // A refusal of the grant itself; a hub that is down or failing answers otherwise (or not at all).
      if (answer.body.error === 'invalid_grant') {
        // Forgotten, so the next sign-in connects this device again.
        this.access = this.refreshToken = null;
        this.onRefused?.();
      }
      return false;
    }
    this.access = answer.body.access_token;
    this.refreshToken = answer.body.refresh_token ?? this.refreshToken;
    this.onNewTokens?.(this.access, this.refreshToken);
    return true;
  }

  /**
   * Signing out: asks the hub to revoke both tokens (RFC 7009) and forgets them.
   * Best effort: a hub out of reach leaves them to expire (the access token's
   * hour; the refresh token is gone from this device with its data).
   */
  async revoke(): Promise<void> {
    const tokens = [this.refreshToken, this.access].filter((token): token is string => token !== null);
    this.access = this.refreshToken = null;
    for (const token of tokens) {
      await this.fetchFn(`${this.base}/oauth2/revoke`, {
        method: 'POST',
        headers: { Authorization: this.clientAuthorization, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }).toString(),
      }).catch(() => undefined);
    }
  }

  private get base(): string {
    return this.hubUrl.replace(/\/+$/, '');
  }

  /** The built-in public client: no secret (RFC 6749 §2.1), hence the empty password. */
  private get clientAuthorization(): string {
    return `Basic ${toBase64(utf8Bytes(`${FIRST_PARTY_CLIENT_ID}:`))}`;
  }

  private async tokenRequest(form: Record<string, string>): Promise<{ ok: boolean; body: Record<string, string> }> {
    const response = await this.fetchFn(`${this.base}/oauth2/token`, {
      method: 'POST',
      headers: { Authorization: this.clientAuthorization, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
    });
    return { ok: response.ok, body: (await response.json()) as Record<string, string> };
  }
}

const KEPT = 'hub_credentials';

/**
 * The credentials of a headless replica (`outpost serve --upstream`), kept in
 * its own database so that after a restart it syncs again without anyone
 * signing in, also when it starts offline. (The desktop app keeps its own in
 * the OS keychain instead.) They are the replica's credentials at another
 * service, so they cannot be kept as hashes: they are as secret as the data
 * folder itself, which holds the team's data. Kept per hub address: pointed at
 * another hub, the replica asks for a sign-in again.
 */
export function keptCredentials(db: Db, hubUrl: string, fetchFn: HubFetch = hubFetch): UpstreamCredentials {
  const text = db.prepare('SELECT value FROM replica_settings WHERE name = ?').pluck().get(KEPT) as string | undefined;
  const kept = text ? (JSON.parse(text) as { hubUrl: string; access: string; refresh: string | null }) : null;
  const same = kept !== null && kept.hubUrl === hubUrl;
  const credentials = new UpstreamCredentials(hubUrl, same ? kept.access : null, same ? kept.refresh : null, fetchFn);
  credentials.onNewTokens = (access, refresh) => {
    db.prepare('INSERT OR REPLACE INTO replica_settings (name, value) VALUES (?, ?)').run(KEPT, JSON.stringify({ hubUrl, access, refresh }));
  };
  return credentials;
}

const SIGNED_IN = 'signed_in_user';

/** The person a one-person replica (the browser's engine) was signed in for, kept for its next start (offline too). */
export interface KeptSignIn {
  hubUserId: number;
  email: string;
}

export function keptSignIn(db: Db): KeptSignIn | null {
  const text = db.prepare('SELECT value FROM replica_settings WHERE name = ?').pluck().get(SIGNED_IN) as string | undefined;
  return text ? (JSON.parse(text) as KeptSignIn) : null;
}

export function keepSignIn(db: Db, signIn: KeptSignIn): void {
  db.prepare('INSERT OR REPLACE INTO replica_settings (name, value) VALUES (?, ?)').run(SIGNED_IN, JSON.stringify(signIn));
}
