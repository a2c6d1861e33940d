import { timingSafeEqual } from 'node:crypto';
import type { EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { tokenHash } from './tokens.js';
import { FIRST_PARTY_CLIENT_ID } from '../../../shared/oauth.js';

export interface OAuthClient {
  client_id: string;
  name: string;
  secret_hash: string | null;
  redirect_uri: string | null;
  first_party: number;
}

/** Registered OAuth applications. Secrets are stored only as SHA-256 hashes. */
export class OAuthClients {
  constructor(private readonly ctx: EngineContext) {}

  /** The built-in public client of the web UI and the desktop app; created on first open. */
  ensureFirstParty(): void {
    this.ctx.db
      .prepare('INSERT OR IGNORE INTO oauth_clients (client_id, name, secret_hash, first_party, created_at) VALUES (?, ?, NULL, 1, ?)')
      .run(FIRST_PARTY_CLIENT_ID, 'Outpost app', isoSeconds(this.ctx.clock.now()));
  }

  find(clientId: string): OAuthClient | undefined {
    return this.ctx.db.prepare('SELECT * FROM oauth_clients WHERE client_id = ?').get(clientId) as OAuthClient | undefined;
  }

  /** The client whose credentials these are, or null. A public client authenticates with an empty secret. */
  authenticate(clientId: string, secret: string): OAuthClient | null {
    const client = this.find(clientId);
    if (!client) return null;
    if (client.secret_hash === null) return secret === '' ? client : null;
    const given = Buffer.from(tokenHash(secret));
    const expected = Buffer.from(client.secret_hash);
    return given.length === expected.length && timingSafeEqual(given, expected) ? client : null;
  }
}
