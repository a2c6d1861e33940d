// Once before the end-to-end run: the web UI the hubs serve and the `outpost` command they run, each built
// when its sources changed since the last build (scripts/buildStamp.mjs), so workers start from a current build.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { builtCli } from '../scripts/build-cli.mjs';

export default async function globalSetup() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) throw new Error(`Chromium is not installed at ${chromium} (apt-get install chromium; .ci/run does it).`);
  const web = spawnSync(process.execPath, ['scripts/build-web-if-stale.mjs'], { stdio: 'inherit' });
  if (web.status !== 0) throw new Error('the web UI did not build');
  await builtCli();
}
