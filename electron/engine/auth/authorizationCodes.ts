import { sha256Base64Url, timingSafeEqual } from '../platform/crypto.js';
import { utf8Bytes } from '../bytes.js';
import type { EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { newToken, tokenHash } from './tokens.js';
import type { Scope } from '../../../shared/oauth.js';

/** Authorization codes are valid 10 minutes (spec: Limits). */
export const CODE_LIFETIME_SECONDS = 10 * 60;

export interface CodeGrant {
  clientId: string;
  userId: number;
  redirectUri: string;
  scope: Scope[];
  /** PKCE (RFC 7636), S256 only: base64url(SHA-256(code_verifier)). */
  codeChallenge: string | null;
}

/** What redeeming a code gives: the grant, or why not (`replayed` also revoked what the code had issued). */
export type Redemption = { ok: true; id: number; userId: number; scope: Scope[] } | { ok: false; reason: string; replayed?: number };

interface CodeRow {
  id: number;
  client_id: string;
  user_id: number;
  redirect_uri: string;
  scope: string;
  code_challenge: string | null;
  expires_at: string;
  used_at: string | null;
}

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** The code for the redirect; only its SHA-256 is stored. */
export function issueCode(ctx: EngineContext, grant: CodeGrant): string {
  const code = newToken();
  const now = ctx.clock.now();
  ctx.db.prepare(`INSERT INTO authorization_codes (code_hash, client_id, user_id, redirect_uri, scope, code_challenge, created_at, expires_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(
    tokenHash(code), grant.clientId, grant.userId, grant.redirectUri, grant.scope.join(' '), grant.codeChallenge,
    isoSeconds(now), isoSeconds(new Date(now.getTime() + CODE_LIFETIME_SECONDS * 1000)),
  );
  return code;
}

/**
 * Redeems a code once: it must be this client's, unexpired, unused, asked
 * with the same redirect URI, and (when a challenge was given) come with the
 * matching PKCE verifier. A second redemption is refused and reported, so the
 * caller revokes every token the code issued (RFC 6749 §4.1.2).
 */
export function redeemCode(ctx: EngineContext, code: string, clientId: string, redirectUri: string | undefined, verifier: string | undefined): Redemption {
  return ctx.db.transaction((): Redemption => {
    const row = ctx.db.prepare('SELECT * FROM authorization_codes WHERE code_hash = ?').get(tokenHash(code)) as CodeRow | undefined;
    if (!row || row.client_id !== clientId) return { ok: false, reason: 'The authorization code is invalid or was issued to another client.' };
    if (row.used_at !== null) return { ok: false, reason: 'The authorization code was already used; the tokens it issued are revoked.', replayed: row.id };
    const now = isoSeconds(ctx.clock.now());
    if (row.expires_at <= now) return { ok: false, reason: 'The authorization code has expired (codes are valid 10 minutes).' };
    if (redirectUri !== row.redirect_uri) return { ok: false, reason: 'redirect_uri must be the one the code was requested with.' };
    if (row.code_challenge !== null && !pkceMatches(row.code_challenge, verifier)) {
      return { ok: false, reason: 'code_verifier does not match the code_challenge (PKCE, S256).' };
    }
    ctx.db.prepare('UPDATE authorization_codes SET used_at = ? WHERE id = ?').run(now, row.id);
    return { ok: true, id: row.id, userId: row.user_id, scope: row.scope.split(' ') as Scope[] };
  })();
}

function pkceMatches(challenge: string, verifier: string | undefined): boolean {
  if (!verifier || !VERIFIER.test(verifier)) return false;
  return timingSafeEqual(utf8Bytes(sha256Base64Url(verifier)), utf8Bytes(challenge));
}

/** A well-formed S256 challenge: 43 base64url characters (a SHA-256). */
export const isCodeChallenge = (value: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(value);
