import { createHash, randomBytes } from 'node:crypto';
import type { EngineContext, Actor } from '../context.js';
import { isoSeconds } from '../clock.js';
import type { Scope } from '../../../shared/oauth.js';
import type { TokenResponse } from '../../../shared/oauth.js';
import type { UserRole } from '../../../shared/resources/user.js';

export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;

/**
 * 32 random bytes as hex: 64 characters, the only length the official
 * client libraries accept. Only the SHA-256 of a token is stored: a token
 * has 256 bits of entropy, so a fast hash is enough (unlike passwords).
 */
export function newToken(): string {
  return randomBytes(32).toString('hex');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

interface TokenRow {
  id: number;
  user_id: number;
  role: UserRole;
  scope: string;
  expires_at: string | null;
}

export class Tokens {
  private readonly lookup;

  constructor(private readonly ctx: EngineContext) {
    this.lookup = ctx.db.prepare(`
      SELECT t.id, t.user_id, u.role, t.scope, t.expires_at
      FROM access_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = ? AND t.revoked_at IS NULL AND u.status = 'active' AND u.deleted_at IS NULL`);
  }

  /** The caller a bearer token stands for, or null when it is unknown, revoked or expired. */
  authenticate(token: string): (Actor & { tokenId: number }) | null {
    if (token.length !== 64) return null;
    const row = this.lookup.get(tokenHash(token)) as TokenRow | undefined;
    if (!row) return null;
    if (row.expires_at !== null && row.expires_at <= isoSeconds(this.ctx.clock.now())) return null;
    return { tokenId: row.id, userId: row.user_id, role: row.role, scopes: new Set(row.scope.split(' ') as Scope[]) };
  }

  /** A personal access token for scripts: no client, no expiry, valid until revoked. */
  createPersonal(userId: number, scope: Scope[]): string {
    const token = newToken();
    this.ctx.db
      .prepare("INSERT INTO access_tokens (token_hash, user_id, kind, scope, created_at) VALUES (?, ?, 'personal', ?, ?)")
      .run(tokenHash(token), userId, scope.join(' '), isoSeconds(this.ctx.clock.now()));
    return token;
  }

  /** An OAuth access token (one hour) with a refresh token beside it. */
  issue(userId: number, clientId: string, scope: Scope[], refreshTokenId?: number): TokenResponse {
    const now = this.ctx.clock.now();
    const scopeText = scope.join(' ');
    return this.ctx.db.transaction(() => {
      let refreshToken: string | undefined;
      let refreshId = refreshTokenId;
      if (refreshId === undefined) {
        refreshToken = newToken();
        refreshId = Number(
          this.ctx.db
            .prepare('INSERT INTO refresh_tokens (token_hash, user_id, client_id, scope, created_at) VALUES (?, ?, ?, ?, ?)')
            .run(tokenHash(refreshToken), userId, clientId, scopeText, isoSeconds(now)).lastInsertRowid,
        );
      }
      const accessToken = newToken();
      const expiresAt = new Date(now.getTime() + ACCESS_TOKEN_LIFETIME_SECONDS * 1000);
      this.ctx.db
        .prepare(`INSERT INTO access_tokens (token_hash, user_id, client_id, refresh_token_id, kind, scope, created_at, expires_at)
                  VALUES (?, ?, ?, ?, 'oauth', ?, ?, ?)`)
        .run(tokenHash(accessToken), userId, clientId, refreshId, scopeText, isoSeconds(now), isoSeconds(expiresAt));
      const response: TokenResponse = {
        access_token: accessToken,
        token_type: 'bearer',
        expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
        scope: scopeText,
      };
      if (refreshToken) response.refresh_token = refreshToken;
      return response;
    })();
  }

  /**
   * Exchanges a refresh token for a new access token and a new refresh token.
   * The old refresh token is revoked (rotation), so a stolen copy is useless
   * once the legitimate client has refreshed.
   */
  refresh(refreshToken: string, clientId: string): TokenResponse | null {
    const row = this.ctx.db
      .prepare('SELECT id, user_id, scope FROM refresh_tokens WHERE token_hash = ? AND client_id = ? AND revoked_at IS NULL')
      .get(tokenHash(refreshToken), clientId) as { id: number; user_id: number; scope: string } | undefined;
    if (!row) return null;
    return this.ctx.db.transaction(() => {
      this.ctx.db.prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE id = ?').run(isoSeconds(this.ctx.clock.now()), row.id);
      return this.issue(row.user_id, clientId, row.scope.split(' ') as Scope[]);
    })();
  }

  /** Revokes a personal access token; false when no such live token exists. */
  revokePersonal(token: string): boolean {
    return this.ctx.db
      .prepare("UPDATE access_tokens SET revoked_at = ? WHERE token_hash = ? AND kind = 'personal' AND revoked_at IS NULL")
      .run(isoSeconds(this.ctx.clock.now()), tokenHash(token)).changes > 0;
  }

  /**
   * Revokes an access token of this client, or one of its refresh tokens
   * together with every access token issued from it (spec: Using tokens).
   */
  revoke(token: string, clientId: string): void {
    const { db } = this.ctx;
    const now = isoSeconds(this.ctx.clock.now());
    const hash = tokenHash(token);
    db.transaction(() => {
      const refreshId = db.prepare('SELECT id FROM refresh_tokens WHERE token_hash = ? AND client_id = ?').pluck().get(hash, clientId);
      if (refreshId !== undefined) {
        db.prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE id = ?').run(now, refreshId);
        db.prepare('UPDATE access_tokens SET revoked_at = ? WHERE refresh_token_id = ? AND revoked_at IS NULL').run(now, refreshId);
      } else {
        db.prepare('UPDATE access_tokens SET revoked_at = ? WHERE token_hash = ? AND client_id IS ? AND revoked_at IS NULL').run(now, hash, clientId);
      }
    })();
  }
}
