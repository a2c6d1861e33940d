import { afterAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * A hub or replica killed with SIGKILL (a crash, an OOM kill, a supervisor's
 * hard stop) serves again as soon as it is started, with every write it had
 * acknowledged and a database that passes integrity_check; and two live
 * processes never share a data folder. Real `outpost serve` processes, real
 * HTTP, real SQLite files.
 */
const BIN = join(import.meta.dirname, '../../bin/outpost.mjs');
const ADMIN = { OUTPOST_ADMIN_EMAIL: 'crash@example.com', OUTPOST_ADMIN_PASSWORD: 'crash-test-password' };
const dirs: string[] = [];
const children = new Set<ChildProcess>();

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'outpost-crash-'));
  dirs.push(dir);
  return dir;
}

/** `outpost serve`; resolves once it listens (with its URL) or exits (with its output). */
function serve(dataDir: string, extra: string[] = []): Promise<{ child: ChildProcess; url?: string; output: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--rate-limit', '0', ...extra], { env: { ...process.env, ...ADMIN } });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return new Promise((resolve) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[\d.:]+)/.exec(output);
      if (match) resolve({ child, url: match[1], output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', () => resolve({ child, output }));
  });
}

async function kill9(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

function token(dataDir: string): string {
  const created = spawnSync(process.execPath, [BIN, 'tokens', 'create', '--email', ADMIN.OUTPOST_ADMIN_EMAIL, '--scope', 'read write profile sync', '--data-dir', dataDir], { encoding: 'utf8' });
  return (JSON.parse(created.stdout) as { access_token: string }).access_token;
}

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
    const first = await serve(dir);
    expect(first.url, first.output).toBeDefined();
    const refused = await serve(dir);
    expect(refused.url).toBeUndefined();
    expect(refused.output).toMatch(/Another Outpost hub is already running on the data folder/);

    await kill9(first.child);
    const again = await serve(dir);
    expect(again.url, again.output).toBeDefined();
    expect((await fetch(`${again.url}/v2/users/self`, { headers: { Authorization: `Bearer ${token(dir)}` } })).status).toBe(200);
    again.child.kill('SIGTERM');
  });

  it('serves a replica again at once after SIGKILL', async () => {
    const hubDir = tempDir();
    const hub = await serve(hubDir);
    const replicaDir = tempDir();
    const replica = await serve(replicaDir, ['--upstream', hub.url!, '--upstream-token', token(hubDir)]);
    expect(replica.url, replica.output).toBeDefined();
    await kill9(replica.child);
    const again = await serve(replicaDir, ['--upstream', hub.url!, '--upstream-token', token(hubDir)]);
    expect(again.url, again.output).toBeDefined();
    again.child.kill('SIGTERM');
    hub.child.kill('SIGTERM');
  });

  it('keeps every acknowledged write across SIGKILLs in the middle of writing, with a sound database', async () => {
    const dir = tempDir();
    const acknowledged = new Map<number, string>();
    for (let round = 0; round < 5; round++) {
      const hub = await serve(dir);
      expect(hub.url, hub.output).toBeDefined();
      const auth = { Authorization: `Bearer ${token(dir)}`, 'Content-Type': 'application/json' };
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
      await kill9(hub.child);
      writing = false;
      await Promise.all(writers);
      expect(integrity(dir)).toBe('ok');
    }
    expect(acknowledged.size).toBeGreaterThan(20);

    const hub = await serve(dir);
    const auth = { Authorization: `Bearer ${token(dir)}` };
    const missing: string[] = [];
    for (const [id, name] of acknowledged) {
      const answer = await fetch(`${hub.url}/v2/contacts/${id}`, { headers: auth });
      const body = answer.status === 200 ? ((await answer.json()) as { data: { last_name: string } }) : null;
      if (body?.data.last_name !== name) missing.push(`${id} ${name}`);
    }
    expect(missing).toEqual([]);
    hub.child.kill('SIGTERM');
  });
});
