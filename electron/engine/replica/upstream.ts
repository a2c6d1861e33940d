import { FIRST_PARTY_CLIENT_ID } from '../../../shared/oauth.js';
import { hubFetch, type HubFetch } from './hubFetch.js';

/** The scopes a replica asks the hub for: read and change data, its own profile, and sync. */
export const REPLICA_SCOPE = 'read write profile sync';

/**
 * The replica's credentials at its hub: an access token, and the refresh
 * token that renews it (none for a personal access token given on the
 * command line, which does not expire). Kept in memory by the process that
 * runs the replica; the renderer never sees them.
 */
export class UpstreamCredentials {
  /** Called with the new tokens after each renewal (the desktop app saves them for its next start). */
  onRenew: ((access: string, refresh: string | null) => void) | null = null;

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
    }
    return { user };
  }

  /** A new access token from the refresh token (after a 401); false when there is none or the hub refused it. */
  async renew(): Promise<boolean> {
    if (!this.refreshToken) return false;
    const answer = await this.tokenRequest({ grant_type: 'refresh_token', refresh_token: this.refreshToken });
    if (!answer.ok) return false;
    this.access = answer.body.access_token;
    this.refreshToken = answer.body.refresh_token ?? this.refreshToken;
    this.onRenew?.(this.access, this.refreshToken);
    return true;
  }

  private get base(): string {
    return this.hubUrl.replace(/\/+$/, '');
  }

  private async tokenRequest(form: Record<string, string>): Promise<{ ok: boolean; body: Record<string, string> }> {
    const response = await this.fetchFn(`${this.base}/oauth2/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from(`${FIRST_PARTY_CLIENT_ID}:`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
    });
    return { ok: response.ok, body: (await response.json()) as Record<string, string> };
  }
}
