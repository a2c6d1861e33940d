import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, readdirSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken, cleanUp, serve, stop, type Served } from '../support/cliProcess.js';

/**
 * A SQLite hub whose data folder's disk fills up: a real `outpost serve`
 * process on a real small filesystem (tmpfs, mounted by the test: root
 * only), filled with a file until the kernel answers ENOSPC. Writes are
 * answered 503 with Retry-After in the error envelope (never a 500, no
 * internals), reads go on, nothing half-written is kept, and once the space
 * is back the same Idempotency-Key creates the record exactly once and
 * replays that answer after.
 */
const ADMIN = { OUTPOST_ADMIN_EMAIL: 'full@example.com', OUTPOST_ADMIN_PASSWORD: 'full-disk-password' };

/** Mounts a small tmpfs, or says why it cannot. */
function mountSmallDisk(): { dir: string } | { why: string } {
  if (process.getuid?.() !== 0) return { why: 'mounting a tmpfs needs root' };
  const dir = mkdtempSync(join(tmpdir(), 'outpost-full-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { why: `mount refused: ${(mounted.stderr || mounted.error?.message || '').trim()}` };
  }
  return { dir };
}

const disk = mountSmallDisk();
if ('why' in disk) console.log(`disk-full tests skipped: ${disk.why}`);

interface Answer {
  status: number;
  text: string;
  body: any;
  retryAfter: string | null;
  replayed: string | null;
}

describe.skipIf('why' in disk)('a SQLite hub whose disk is full', { timeout: 120_000 }, () => {
  const dataDir = 'dir' in disk ? join(disk.dir, 'data') : '';
  const filler = 'dir' in disk ? join(disk.dir, 'filler') : '';
  let hub: Served;
  let token: string;
  let firstId: number;
  const documents = 'dir' in disk ? join(disk.dir, 'data', 'documents') : '';

  beforeAll(async () => {
    hub = await serve(dataDir, ADMIN);
    token = await accessToken(dataDir, ADMIN.OUTPOST_ADMIN_EMAIL, 'read write profile sync');
    const first = await call('POST', '/v2/contacts', { last_name: 'Written before' });
    expect(first.status, first.text).toBe(200);
    firstId = first.body.data.id;
  });

  afterAll(async () => {
    if (hub) await stop(hub);
    cleanUp();
    if ('dir' in disk) {
      spawnSync('umount', [disk.dir]);
      rmSync(disk.dir, { recursive: true, force: true });
    }
  });

  async function call(method: string, path: string, data?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const answer = await fetch(`${hub.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json', ...(data === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: data === undefined ? undefined : JSON.stringify({ data }),
    });
    const text = await answer.text();
    return { status: answer.status, text, body: text ? JSON.parse(text) : null, retryAfter: answer.headers.get('retry-after'), replayed: answer.headers.get('idempotent-replayed') };
  }

  /** Writes a file until the filesystem refuses another byte. */
  function fillDisk(): void {
    const fd = openSync(filler, 'w');
    const block = Buffer.alloc(64 * 1024, 1);
    try {
      for (;;) writeSync(fd, block);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    } finally {
      closeSync(fd);
    }
    // The last partial blocks too, byte by byte in small pieces.
    const tail = openSync(filler, 'a');
    try {
      for (;;) writeSync(tail, Buffer.alloc(512, 1));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    } finally {
      closeSync(tail);
    }
  }

  /** 503 (the storage is out of space, which frees up) with Retry-After, in the error envelope, and nothing of the server's internals. */
  function expectOutOfSpace(answer: Answer, what: string): void {
    expect(answer.status, `${what}: ${answer.text}`).toBe(503);
    expect(Number(answer.retryAfter), `${what}: Retry-After`).toBeGreaterThan(0);
    expect(answer.body.errors).toHaveLength(1);
    expect(answer.body.errors[0].error).toMatchObject({ code: 'temporarily_unavailable' });
    expect(answer.body.meta.http_status).toMatch(/^503/);
    expect(answer.text).not.toMatch(/SQLITE|ENOSPC|disk I\/O|sqlite|\/tmp\/|\bat \w+ \(|\.ts:\d+/);
  }

  function countNamed(lastName: string): number {
    const db = new Database(join(dataDir, 'outpost.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM contacts WHERE last_name = ?').get(lastName) as { n: number }).n;
    } finally {
      db.close();
    }
  }

  it('answers writes 503 with Retry-After while the disk is full, reads go on, and the same key creates the record once when space is back', async () => {
    fillDisk();
    try {
      const keyed = await call('POST', '/v2/contacts', { last_name: 'Written when full' }, { 'Idempotency-Key': 'full-disk-1' });
      expectOutOfSpace(keyed, 'a write with an Idempotency-Key');
      const unkeyed = await call('POST', '/v2/contacts', { last_name: 'Unkeyed when full' });
      expectOutOfSpace(unkeyed, 'a write without a key');
      // The same key again while the disk is still full: the failed request left no claim, so it runs (and fails) again.
      expectOutOfSpace(await call('POST', '/v2/contacts', { last_name: 'Written when full' }, { 'Idempotency-Key': 'full-disk-1' }), 'the same key again');
      // A document's bytes, a file beside the database: refused alike, and no part of a file is left.
      const upload = await fetch(`${hub.url}/v2/documents?resource_type=contact&resource_id=${firstId}&name=big.bin`, {
        method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' }, body: Buffer.alloc(256 * 1024, 7),
      });
      const uploadText = await upload.text();
      expectOutOfSpace({ status: upload.status, text: uploadText, body: JSON.parse(uploadText), retryAfter: upload.headers.get('retry-after'), replayed: null }, 'a document upload');
      expect(existsSync(documents) ? readdirSync(documents) : []).toEqual([]);
      // What the storage said is in the hub's log (a warning), not in any answer.
      const logged = (hub.stdout() + hub.stderr()).split('\n').filter((line) => /SQLITE_FULL|SQLITE_IOERR|ENOSPC|database or disk is full|disk I\/O error/.test(line));
      expect(logged.length).toBeGreaterThan(0);
      expect(logged.every((line) => /"level":(40|50)/.test(line))).toBe(true);
      const read = await call('GET', '/v2/contacts?per_page=100');
      expect(read.status, read.text).toBe(200);
      expect(read.body.items.map((item: any) => item.data.last_name)).toEqual(['Written before']);
    } finally {
      unlinkSync(filler);
    }
    const created = await call('POST', '/v2/contacts', { last_name: 'Written when full' }, { 'Idempotency-Key': 'full-disk-1' });
    expect(created.status, created.text).toBe(200);
    expect(created.replayed).toBeNull();
    const replay = await call('POST', '/v2/contacts', { last_name: 'Written when full' }, { 'Idempotency-Key': 'full-disk-1' });
    expect(replay.status).toBe(200);
    expect(replay.replayed).toBe('true');
    expect(replay.body.data.id).toBe(created.body.data.id);
    expect(countNamed('Written when full')).toBe(1);
    expect(countNamed('Unkeyed when full')).toBe(0);
    expect((await call('POST', '/v2/contacts', { last_name: 'Unkeyed when full' })).status).toBe(200);
    expect(countNamed('Unkeyed when full')).toBe(1);
    const uploaded = await fetch(`${hub.url}/v2/documents?resource_type=contact&resource_id=${firstId}&name=big.bin`, {
      method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' }, body: Buffer.alloc(256 * 1024, 7),
    });
    expect(uploaded.status, await uploaded.text()).toBe(200);
    expect(readdirSync(documents)).toHaveLength(1);
  });
});
