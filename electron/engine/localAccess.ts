import type { Engine } from './engine.js';
import type { Scope } from '../../shared/oauth.js';

/** What the app on a rep's own device may do through its engine: everything its user may. */
export const LOCAL_USER_SCOPES: Scope[] = ['read', 'write', 'profile', 'sync'];

/**
 * On a replica (the desktop's main process, the browser's engine worker), the
 * token the app's requests carry, acting for the rep's hub user (pulled from
 * the hub like every user). Made for one run and held only in that process's
 * memory; the renderer never sees it.
 */
export function replicaAccessToken(engine: Engine, hubUserId: number): string {
  return engine.tokens.createPersonal(hubUserId, LOCAL_USER_SCOPES);
}
