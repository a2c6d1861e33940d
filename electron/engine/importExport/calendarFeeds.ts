import { randomBytes, sha256Hex } from '../platform/crypto.js';
import { toBase64Url } from '../bytes.js';
import type { EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';

/** 32 random bytes, base64url: the feed URL's only protection, so long enough that guessing is hopeless. */
const SECRET = /^[A-Za-z0-9_-]{43}$/;

const hashOf = (secret: string) => sha256Hex(secret);

/**
 * Per-user calendar feeds on the hub (table calendar_feeds, migration 19).
 * A calendar app cannot send a token, so the feed URL carries a secret; the
 * hub keeps only its SHA-256, shows the secret once, and a new secret
 * replaces the old (whose URL stops working at once).
 */
export class CalendarFeeds {
  constructor(private readonly ctx: EngineContext) {}

  /** Turns the user's feed on, or gives it a new secret; answers the secret (shown only now). */
  enable(userId: number): { secret: string; createdAt: string } {
    const secret = toBase64Url(randomBytes(32));
    const createdAt = isoSeconds(this.ctx.clock.now());
    this.ctx.statements.get(`INSERT INTO calendar_feeds (user_id, secret_hash, created_at) VALUES (?, ?, ?)
      ON CONFLICT (user_id) DO UPDATE SET secret_hash = excluded.secret_hash, created_at = excluded.created_at`).run(userId, hashOf(secret), createdAt);
    return { secret, createdAt };
  }

  status(userId: number): { enabled: boolean; created_at: string | null } {
    const createdAt = this.ctx.statements.get('SELECT created_at FROM calendar_feeds WHERE user_id = ?').pluck().get(userId) as string | undefined;
    return { enabled: createdAt !== undefined, created_at: createdAt ?? null };
  }

  disable(userId: number): void {
    this.ctx.statements.get('DELETE FROM calendar_feeds WHERE user_id = ?').run(userId);
  }

  /** The active user whose feed this secret opens; undefined for an unknown secret or a deactivated user. */
  userOf(secret: string): number | undefined {
    if (!SECRET.test(secret)) return undefined;
    return this.ctx.statements.get(`SELECT f.user_id FROM calendar_feeds f JOIN users u ON u.id = f.user_id
      WHERE f.secret_hash = ? AND u.status = 'active' AND u.deleted_at IS NULL`).pluck().get(hashOf(secret)) as number | undefined;
  }
}
