import type { EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { newToken, tokenHash } from './tokens.js';

/** How long a one-time link lets its person set a password. */
export const INVITATION_LIFETIME_DAYS = 7;

/** Where the web app's acceptance screen lives on the hub (`<origin>/invite/<token>`). */
export const INVITE_PATH = '/invite/';

export interface IssuedInvitation {
  token: string;
  expiresAt: string;
}

/** The link as people open it: the acceptance screen on the hub at `origin`. */
export const inviteLink = (origin: string, invite: IssuedInvitation) => `${origin.replace(/\/+$/, '')}${INVITE_PATH}${invite.token}`;

interface InvitationRow {
  id: number;
  user_id: number;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
}

/** Why a link cannot be used, in words for the person holding it. */
export type Redemption = { ok: true; invitationId: number; userId: number } | { ok: false; reason: string };

/**
 * One-time links to set a password: an invitation for a new user, or a
 * password reset for anyone. The token has 256 random bits, so its SHA-256
 * is all that is stored (a copy of the database lets nobody in); a user has
 * one usable link at a time, since issuing one ends the earlier ones.
 */
export class Invitations {
  constructor(private readonly ctx: EngineContext) {}

  /** A fresh link for the user; earlier links of theirs stop working. Call inside the write's transaction. */
  issue(userId: number): IssuedInvitation {
    const now = this.ctx.clock.now();
    const token = newToken();
    const expiresAt = isoSeconds(new Date(now.getTime() + INVITATION_LIFETIME_DAYS * 86_400_000));
    this.revokeAll(userId);
    this.ctx.db.prepare('INSERT INTO user_invitations (user_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?)')
      .run(userId, tokenHash(token), isoSeconds(now), expiresAt);
    return { token, expiresAt };
  }

  /** Checks a link without using it up (the password must pass its checks first). */
  check(token: string): Redemption {
    const row = this.ctx.db.prepare('SELECT id, user_id, expires_at, used_at, revoked_at FROM user_invitations WHERE token_hash = ?')
      .get(tokenHash(token)) as InvitationRow | undefined;
    if (!row) return { ok: false, reason: 'This link is not valid: ask your administrator for a new one.' };
    if (row.used_at) return { ok: false, reason: 'This link has already been used: sign in, or ask your administrator for a new one.' };
    if (row.revoked_at) return { ok: false, reason: 'This link was replaced by a newer one: use the latest link you were sent.' };
    if (Date.parse(row.expires_at) <= this.ctx.clock.now().getTime()) {
      return { ok: false, reason: 'This link has expired: ask your administrator for a new one.' };
    }
    return { ok: true, invitationId: row.id, userId: row.user_id };
  }

  /** Ends every link still out for the user (an admin set their password). */
  revokeAll(userId: number): void {
    this.ctx.db.prepare('UPDATE user_invitations SET revoked_at = ? WHERE user_id = ? AND used_at IS NULL AND revoked_at IS NULL')
      .run(isoSeconds(this.ctx.clock.now()), userId);
  }

  /** Marks a checked link used, inside the transaction that sets the password. */
  markUsed(invitationId: number): void {
    this.ctx.db.prepare('UPDATE user_invitations SET used_at = ? WHERE id = ?').run(isoSeconds(this.ctx.clock.now()), invitationId);
  }
}
