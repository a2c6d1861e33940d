import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { accessToken, cleanUp, serve, stop, tempDir, type Served } from '../support/cliProcess.js';

/**
 * A hub or replica killed with SIGKILL (a crash, an OOM kill, a supervisor's
 * hard stop) serves again as soon as it is started, with every write it had
 * acknowledged and a database that passes integrity_check; and two live
 * processes never share a data folder. Real `outpost serve` processes, real
 * HTTP, real SQLite files.
 */
const ADMIN = { OUTPOST_ADMIN_EMAIL: 'crash@example.com', OUTPOST_ADMIN_PASSWORD: 'crash-test-password' };

afterAll(cleanUp);

const start = (dataDir: string, extra: string[] = []) => serve(dataDir, ADMIN, extra);

async function kill9(served: Served): Promise<void> {
  served.child.kill('SIGKILL');
  await served.exited;
}

const token = (dataDir: string) => accessToken(dataDir, ADMIN.OUTPOST_ADMIN_EMAIL, 'read write profile sync');

function integrity(dataDir: string): string {
  const db = new Database(join(dataDir, 'outpost.sqlite'));
  try {
    return db.pragma('integrity_check', { simple: true }) as string;
  } finally {
    db.close();
  }
}

describe('a killed hub', { timeout: 120_000 }, () => {
  it('serves again at once after SIGKILL, and a second live process on its folder is refused', async () => {
    const dir = tempDir();
    const first = await start(dir);
    await expect(start(dir)).rejects.toThrow(/Another Outpost hub is already running on the data folder/);

    await kill9(first);
    const again = await start(dir);
    expect((await fetch(`${again.url}/v2/users/self`, { headers: { Authorization: `Bearer ${await token(dir)}` } })).status).toBe(200);
    await stop(again);
  });

  it('serves a replica again at once after SIGKILL', async () => {
    const hubDir = tempDir();
    const hub = await start(hubDir);
    const replicaDir = tempDir();
    const upstream = ['--upstream', hub.url, '--upstream-token', await token(hubDir)];
    await kill9(await start(replicaDir, upstream));
    const again = await start(replicaDir, upstream);
    expect((await fetch(`${again.url}/v2/replica/status`, { headers: { Authorization: 'Bearer x' } })).status).toBe(401);
    await stop(again);
    await stop(hub);
  });

  it('keeps every acknowledged write across SIGKILLs in the middle of writing, with a sound database', async () => {
    const dir = tempDir();
    const acknowledged = new Map<number, string>();
    for (let round = 0; round < 5; round++) {
      const hub = await start(dir);
      const auth = { Authorization: `Bearer ${await token(dir)}`, 'Content-Type': 'application/json' };
      let writing = true;
      // Eight writers at once, until the kill: some answers arrive, some writes are cut off in flight.
      const writers = Array.from({ length: 8 }, async (_, writer) => {
        for (let n = 0; writing; n++) {
          const name = `Round ${round} writer ${writer} #${n}`;
          try {
            const answer = await fetch(`${hub.url}/v2/contacts`, { method: 'POST', headers: auth, body: JSON.stringify({ data: { last_name: name } }) });
            if (answer.status === 200) acknowledged.set(((await answer.json()) as { data: { id: number } }).data.id, name);
          } catch {
            return; // The process is gone: this write's fate is unknown, and not counted.
          }
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 300 + round * 150));
      await kill9(hub);
      writing = false;
      await Promise.all(writers);
      expect(integrity(dir)).toBe('ok');
    }
    expect(acknowledged.size).toBeGreaterThan(20);

    const hub = await start(dir);
    const auth = { Authorization: `Bearer ${await token(dir)}` };
    const missing: string[] = [];
    for (const [id, name] of acknowledged) {
      const answer = await fetch(`${hub.url}/v2/contacts/${id}`, { headers: auth });
      const body = answer.status === 200 ? ((await answer.json()) as { data: { last_name: string } }) : null;
      if (body?.data.last_name !== name) missing.push(`${id} ${name}`);
    }
    expect(missing).toEqual([]);
    await stop(hub);
  });
});
