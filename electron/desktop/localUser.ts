// The rep's own user in the desktop replica. The rep never signs in locally:
// the main process acts for this user with a personal access token that
// exists only in the main process's memory for one run.
import { randomBytes } from 'node:crypto';
import type { Engine } from '../engine/engine.js';
import { LOCAL_USER_SCOPES } from '../engine/localAccess.js';

export { replicaAccessToken } from '../engine/localAccess.js';

export const LOCAL_USER_EMAIL = 'me@outpost.local';

/**
 * Creates the local admin on first start (with a random password that is
 * kept nowhere: nobody signs in with it) and issues this run's token.
 * The caller revokes the token on quit (`engine.tokens.revokePersonal`).
 */
export async function localAccessToken(engine: Engine): Promise<string> {
  const existing = engine.users.findByEmail(LOCAL_USER_EMAIL);
  const userId = existing
    ? existing.id
    : await engine.users.create({ email: LOCAL_USER_EMAIL, name: 'Me', role: 'admin', password: randomBytes(24).toString('base64url') });
  return engine.tokens.createPersonal(userId, LOCAL_USER_SCOPES);
}
