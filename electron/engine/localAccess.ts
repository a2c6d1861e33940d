import type { Engine } from './engine.js';
import { tokenHash } from './auth/tokens.js';
import type { Scope } from '../../shared/oauth.js';

/** What the app on a rep's own device may do through its engine: everything its user may. */
export const LOCAL_USER_SCOPES: Scope[] = ['read', 'write', 'profile', 'sync'];

/** The replica setting that names (by its hash) the token of the app's latest run. */
const LATEST_RUN_TOKEN = 'local_access_token_hash';

/**
 * On a replica (the desktop's main process, the browser's engine worker), the
 * token the app's requests carry, acting for the rep's hub user (pulled from
 * the hub like every user). Made for one run and held only in that process's
 * memory; the renderer never sees it. It takes the place of the previous run's,
 * which is deleted now: a run that ended without revoking its own (a browser
 * tab closed, a process killed) leaves none behind to pile up.
 */
export function replicaAccessToken(engine: Engine, hubUserId: number): string {
  const { db } = engine;
  return db.transaction(() => {
    const previous = db.prepare('SELECT value FROM replica_settings WHERE name = ?').pluck().get(LATEST_RUN_TOKEN) as string | undefined;
    if (previous !== undefined) db.prepare("DELETE FROM access_tokens WHERE token_hash = ? AND kind = 'personal'").run(previous);
    const token = engine.tokens.createPersonal(hubUserId, LOCAL_USER_SCOPES);
    db.prepare('INSERT OR REPLACE INTO replica_settings (name, value) VALUES (?, ?)').run(LATEST_RUN_TOKEN, tokenHash(token));
    return token;
  })();
}
