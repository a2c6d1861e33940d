import { randomBytes, sha256Hex } from '../platform/crypto.js';
import { toHex } from '../bytes.js';
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
  return toHex(randomBytes(32));
}

export function tokenHash(token: string): string {
  return sha256Hex(token);
}

interface TokenRow {
  id: number;
  user_id: number;
  role: UserRole;
  scope: string;
  expires_at: string | null;
  first_used_at: string | null;
  supersedes_refresh_id: number | null;
}

/** How an OAuth access token came to be: from a refresh token, or a code, and whether a refresh token goes with it. */
export interface IssueOptions {
  /** Issue a refresh token beside it (not for the implicit grant). */
  withRefreshToken: boolean;
  /** The refresh token it was issued by refreshing: that one ends when this token is first used. */
  supersedes?: number;
  authorizationCodeId?: number;
}

/** The most tokens a node keeps in memory; past it the cache starts again (each entry is a few hundred bytes). */
const MOST_CACHED_TOKENS = 20_000;

/** Whether cached token rows may be trusted now: only while every change to them is heard (db/postgres/noticeListener.ts). */
export interface ChangeWatch {
  readonly listening: boolean;
}

export class Tokens {
  private readonly lookup;
  /**
   * Token rows by hash: a request's token is the same one as its last
   * request's, and each look-up is a round trip to PostgreSQL or, on SQLite,
   * a hash and a join (~15 µs of the ~120 µs a hub spends on a contact read).
   * Cleared at once when any node, connection or the command line revokes a
   * token or changes a user's role or status, as `cacheWhile`'s watch hears
   * (db/postgres/noticeListener.ts; db/authChangeWatch.ts on SQLite).
   */
  private readonly cached = new Map<string, TokenRow>();
  private watch: ChangeWatch | null = null;

  constructor(private readonly ctx: EngineContext) {
    this.lookup = ctx.db.prepare(`
      SELECT t.id, t.user_id, u.role, t.scope, t.expires_at, t.first_used_at, t.supersedes_refresh_id
      FROM access_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = ? AND t.revoked_at IS NULL AND u.status = 'active' AND u.deleted_at IS NULL`);
  }

  /** Keeps token rows in memory while `watch` hears every change to them; the watch calls `forget` on each change. */
  cacheWhile(watch: ChangeWatch): void {
    this.watch = watch;
    this.ctx.forgetCachedTokens = () => this.forget();
  }

  /** Drops every token row kept in memory (a token or a user's permissions changed). */
  forget(): void {
    this.cached.clear();
  }

  /** The caller a bearer token stands for, or null when it is unknown, revoked or expired. */
  authenticate(token: string): (Actor & { tokenId: number }) | null {
    if (token.length !== 64) return null;
    const row = this.rowOf(tokenHash(token));
    if (!row) return null;
    const now = isoSeconds(this.ctx.clock.now());
    if (row.expires_at !== null && row.expires_at <= now) return null;
    if (row.first_used_at === null) this.markFirstUse(row, now);
    return { tokenId: row.id, userId: row.user_id, role: row.role, scopes: new Set(row.scope.split(' ') as Scope[]) };
  }

  /** A live token's row, from memory when it may be trusted; unknown tokens are never kept (anyone can make up more). */
  private rowOf(hash: string): TokenRow | undefined {
    const trusted = this.watch?.listening === true;
    if (!trusted) this.cached.clear();
    const known = trusted ? this.cached.get(hash) : undefined;
    if (known) return known;
    const row = this.lookup.get(hash) as TokenRow | undefined;
    if (row && trusted) {
      if (this.cached.size >= MOST_CACHED_TOKENS) this.cached.clear();
      this.cached.set(hash, row);
    }
    return row;
  }

  /** The first use of a refreshed access token ends the refresh token it was issued from (spec: Grants, 4). */
  private markFirstUse(row: TokenRow, now: string): void {
    this.ctx.db.transaction(() => {
      this.ctx.db.prepare('UPDATE access_tokens SET first_used_at = ? WHERE id = ?').run(now, row.id);
      if (row.supersedes_refresh_id !== null) {
        this.ctx.db.prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, row.supersedes_refresh_id);
      }
    })();
    // Marked once: a cached row must not write it again (the notice of this update clears it anyway, a moment later).
    row.first_used_at = now;
  }

  /** A personal access token for scripts: no client, no expiry, valid until revoked. */
  createPersonal(userId: number, scope: Scope[]): string {
    const token = newToken();
    this.ctx.db
      .prepare("INSERT INTO access_tokens (token_hash, user_id, kind, scope, created_at) VALUES (?, ?, 'personal', ?, ?)")
      .run(tokenHash(token), userId, scope.join(' '), isoSeconds(this.ctx.clock.now()));
    return token;
  }

  /** An OAuth access token (one hour), with a refresh token beside it unless the grant is implicit. */
  issue(userId: number, clientId: string, scope: Scope[], options: IssueOptions): TokenResponse {
    return this.ctx.db.transaction(() => {
      const now = this.ctx.clock.now();
      const scopeText = scope.join(' ');
      let refreshToken: string | undefined;
      let refreshId: number | null = null;
      if (options.withRefreshToken) {
        refreshToken = newToken();
        refreshId = Number(this.ctx.db
          .prepare('INSERT INTO refresh_tokens (token_hash, user_id, client_id, scope, created_at, authorization_code_id) VALUES (?, ?, ?, ?, ?, ?)')
          .run(tokenHash(refreshToken), userId, clientId, scopeText, isoSeconds(now), options.authorizationCodeId ?? null).lastInsertRowid);
      }
      const accessToken = newToken();
      const expiresAt = new Date(now.getTime() + ACCESS_TOKEN_LIFETIME_SECONDS * 1000);
      this.ctx.db
        .prepare(`INSERT INTO access_tokens (token_hash, user_id, client_id, refresh_token_id, kind, scope, created_at, expires_at, supersedes_refresh_id, authorization_code_id)
                  VALUES (?, ?, ?, ?, 'oauth', ?, ?, ?, ?, ?)`)
        .run(tokenHash(accessToken), userId, clientId, refreshId, scopeText, isoSeconds(now), isoSeconds(expiresAt), options.supersedes ?? null, options.authorizationCodeId ?? null);
      const response: TokenResponse = { access_token: accessToken, token_type: 'bearer', expires_in: ACCESS_TOKEN_LIFETIME_SECONDS, scope: scopeText };
      if (refreshToken) response.refresh_token = refreshToken;
      return response;
    })();
  }

  /**
   * Exchanges a refresh token for a new access token and a new refresh token,
   * with the same scope or a narrower one. As the spec says, the previous
   * refresh token stays valid until the new access token is used for the
   * first time (so a client that lost the answer can retry); then it stops
   * working. `invalid` when the token is unknown, revoked, another client's
   * or its user is no longer active; `wider` when the scope asked for is.
   */
  refresh(refreshToken: string, clientId: string, narrowTo?: Scope[]): TokenResponse | 'invalid' | 'wider' {
    const row = this.ctx.db
      .prepare(`SELECT r.id, r.user_id, r.scope, r.authorization_code_id FROM refresh_tokens r JOIN users u ON u.id = r.user_id
        WHERE r.token_hash = ? AND r.client_id = ? AND r.revoked_at IS NULL AND u.status = 'active' AND u.deleted_at IS NULL`)
      .get(tokenHash(refreshToken), clientId) as { id: number; user_id: number; scope: string; authorization_code_id: number | null } | undefined;
    if (!row) return 'invalid';
    const granted = row.scope.split(' ') as Scope[];
    if (narrowTo && !narrowTo.every((s) => granted.includes(s))) return 'wider';
    const codeId = row.authorization_code_id ?? undefined;
    return this.issue(row.user_id, clientId, narrowTo ?? granted, { withRefreshToken: true, supersedes: row.id, authorizationCodeId: codeId });
  }

  /** Revokes every token issued from an authorization code (it was replayed: RFC 6749 §4.1.2). */
  revokeIssuedFromCode(codeId: number): void {
    const now = isoSeconds(this.ctx.clock.now());
    this.ctx.db.transaction(() => {
      this.ctx.db.prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE authorization_code_id = ? AND revoked_at IS NULL').run(now, codeId);
      this.ctx.db.prepare(`UPDATE access_tokens SET revoked_at = ? WHERE revoked_at IS NULL AND (authorization_code_id = ?
        OR refresh_token_id IN (SELECT id FROM refresh_tokens WHERE authorization_code_id = ?))`).run(now, codeId, codeId);
    })();
    this.cached.clear();
  }

  /** Revokes a personal access token; false when no such live token exists. */
  revokePersonal(token: string): boolean {
    this.cached.delete(tokenHash(token));
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
    this.cached.clear();
  }
}
