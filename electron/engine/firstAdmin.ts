import { randomBytes } from './platform/crypto.js';
import { toBase64Url } from './bytes.js';
import type { Engine } from './engine.js';

/**
 * First start on an empty database (the hub, the desktop app, or `seed`): OUTPOST_ADMIN_EMAIL / OUTPOST_ADMIN_PASSWORD
 * create the first admin; without them a generated password is printed once.
 */
export async function bootstrapAdmin(engine: Engine, env: NodeJS.ProcessEnv, print: (line: string) => void): Promise<void> {
  if (engine.users.count() > 0) return;
  const email = env.OUTPOST_ADMIN_EMAIL || 'admin@outpost.local';
  const generated = !env.OUTPOST_ADMIN_PASSWORD;
  const password = env.OUTPOST_ADMIN_PASSWORD || toBase64Url(randomBytes(12));
  await engine.users.create({ email, name: 'Administrator', role: 'admin', password });
  if (generated) print(`Created the first admin ${email} with password ${password} (shown only this once).`);
  else print(`Created the first admin ${email}.`);
}
