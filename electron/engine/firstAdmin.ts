import { randomBytes } from 'node:crypto';
import type { Engine } from './engine.js';

/**
 * First start on an empty database (the hub, the desktop app, or `seed`): OUTPOST_ADMIN_EMAIL / OUTPOST_ADMIN_PASSWORD
 * create the first admin; without them a generated password is printed once.
 */
export async function bootstrapAdmin(engine: Engine, env: NodeJS.ProcessEnv, print: (line: string) => void): Promise<void> {
  if (engine.users.count() > 0) return;
  const email = env.OUTPOST_ADMIN_EMAIL || 'admin@outpost.local';
  const generated = !env.OUTPOST_ADMIN_PASSWORD;
  const password = env.OUTPOST_ADMIN_PASSWORD || randomBytes(12).toString('base64url');
  await engine.users.create({ email, name: 'Administrator', role: 'admin', password });
  if (generated) print(`Created the first admin ${email} with password ${password} (shown only this once).`);
  else print(`Created the first admin ${email}.`);
}
