import { randomBytes } from '../platform/crypto.js';
import { fromHex, toHex } from '../bytes.js';
import type { EngineContext } from '../context.js';

/**
 * A key of this hub (signing download links, CSRF tokens): 256 random bits,
 * created on first use and kept in the database, so links and tokens stay
 * valid across restarts and differ between hubs.
 */
export function hubSecret(ctx: EngineContext, name: string): Uint8Array {
  ctx.db.prepare('INSERT OR IGNORE INTO secrets (name, value) VALUES (?, ?)').run(name, toHex(randomBytes(32)));
  return fromHex(ctx.db.prepare('SELECT value FROM secrets WHERE name = ?').pluck().get(name) as string);
}
