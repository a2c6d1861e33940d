import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { accessToken, cleanUp, outpost, serve, stop, tempDir } from '../support/cliProcess.js';

/**
 * `outpost backup` and `outpost restore` as an administrator runs them:
 * real child processes (a hub serving and writing, the commands beside it),
 * real SQLite files in temp folders, real HTTP on 127.0.0.1.
 */
afterAll(cleanUp);

const ADMIN = { OUTPOST_ADMIN_EMAIL: 'boss@example.com', OUTPOST_ADMIN_PASSWORD: 'boss-password-1' };
const QUOTE = 'The quote, version 1: 12 units at 40 EUR.';

const adminToken = (dataDir: string) => accessToken(dataDir, ADMIN.OUTPOST_ADMIN_EMAIL);

/** A small client of one hub with one token. */
function client(url: string, token: string) {
  const request = async (method: string, path: string, body?: string, type = 'application/json') => {
    const response = await fetch(`${url}${path}`, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': type }, body });
    expect(response.status, `${method} ${path}`).toBe(200);
    return (await response.json()).data;
  };
  return {
    get: (path: string) => request('GET', path),
    create: (path: string, data: unknown) => request('POST', path, JSON.stringify({ data })),
    upload: (contactId: number, name: string, content: string) => request('POST', `/v2/documents?resource_type=contact&resource_id=${contactId}&name=${name}`, content, 'text/plain'),
    list: async (path: string) => {
      const response = await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
      return (await response.json()).items.map((item: any) => item.data);
    },
  };
}

/** Creates contacts one after another until stopped; `acknowledged` holds the ids the hub has answered with. */
function keepWriting(api: ReturnType<typeof client>) {
  const acknowledged: number[] = [];
  let writing = true;
  const done = (async () => {
    for (let n = 0; writing; n++) acknowledged.push((await api.create('/v2/contacts', { last_name: `Written ${n}` })).id);
  })();
  return { acknowledged, stop: async () => { writing = false; await done; } };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
}

const oneLineError = (result: { stderr: string }) => {
  expect(result.stderr.split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(/^outpost: /);
};

describe('outpost backup and restore', { timeout: 180_000 }, () => {
  it('backs up a hub while it serves and writes, and the restored copy serves the same data and documents', async () => {
    const dir = tempDir();
    const file = join(tempDir(), 'outpost-backup.sqlite');
    const hub = await serve(dir, ADMIN);
    const token = await adminToken(dir);
    const api = client(hub.url, token);
    const holder = await api.create('/v2/contacts', { last_name: 'With a file' });
    const document = await api.upload(holder.id, 'quote.txt', QUOTE);

    const writer = keepWriting(api);
    await until(() => writer.acknowledged.length >= 20);
    const acknowledgedBefore = [...writer.acknowledged];
    const backup = await outpost(['backup', '--to', file, '--data-dir', dir]);
    const writtenMeanwhile = writer.acknowledged.length - acknowledgedBefore.length;
    await writer.stop();

    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stderr).toBe('');
    expect(backup.stdout).toMatch(new RegExp(`^Backed up ${dir}/outpost\\.sqlite to ${file} \\(\\d+ bytes, schema \\d+\\) and 1 document files \\(${QUOTE.length} bytes\\) to ${file}\\.documents\\.$`));
    expect(writtenMeanwhile, 'writes went on while the backup ran').toBeGreaterThan(0);
    const copy = new Database(file, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    const copied = new Set(copy.prepare('SELECT id FROM contacts').pluck().all());
    copy.close();
    expect(acknowledgedBefore.filter((id) => !copied.has(id)), 'acknowledged before the backup began, missing from it').toEqual([]);
    expect(readdirSync(`${file}.documents`)).toEqual([String(document.id)]);
    expect(readdirSync(join(file, '..')).filter((name) => name.includes('partial'))).toEqual([]);

    // Not into a folder a hub is serving: it holds the folder's lock.
    const refused = await outpost(['restore', '--from', file, '--data-dir', dir, '--force']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`outpost: a hub is running on ${dir}: stop it before restoring into that folder`);
    expect(await stop(hub)).toBe(0);

    const restoredDir = join(tempDir(), 'restored');
    const restored = await outpost(['restore', '--from', file, '--data-dir', restoredDir]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(new RegExp(`^Restored ${file} \\(schema \\d+\\) and 1 document files \\(${QUOTE.length} bytes\\) into ${restoredDir}\\.$`));
    const again = await serve(restoredDir);
    const restoredApi = client(again.url, token);
    expect((await restoredApi.get(`/v2/contacts/${holder.id}`)).last_name).toBe('With a file');
    for (const id of acknowledgedBefore) expect((await restoredApi.get(`/v2/contacts/${id}`)).id).toBe(id);
    const [restoredDocument] = await restoredApi.list(`/v2/documents?resource_type=contact&resource_id=${holder.id}`);
    expect(await (await fetch(restoredDocument.download_url)).text()).toBe(QUOTE);
    expect(await stop(again)).toBe(0);
  });

  it('restores over an existing database only with --force, removing the old journals', async () => {
    const [source, target] = [tempDir(), tempDir()];
    const file = join(tempDir(), 'backup.sqlite');
    await Promise.all([
      outpost(['users', 'add', '--email', 'rep@example.com', '--name', 'Rep', '--role', 'admin', '--password', 'rep-password-1', '--data-dir', source])
        .then(() => outpost(['backup', '--to', file, '--data-dir', source])),
      outpost(['users', 'add', '--email', 'other@example.com', '--name', 'Other', '--role', 'admin', '--password', 'other-password-1', '--data-dir', target]),
    ]);
    expect(existsSync(file)).toBe(true);
    const refused = await outpost(['restore', '--from', file, '--data-dir', target]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`outpost: ${target} already has a database; add --force to replace it (and its documents)`);

    writeFileSync(join(target, 'outpost.sqlite-wal'), 'a journal of the database being replaced');
    writeFileSync(join(target, 'outpost.sqlite-shm'), 'its index');
    mkdirSync(join(target, 'documents'), { recursive: true });
    writeFileSync(join(target, 'documents', '99'), 'a file of the database being replaced');
    const forced = await outpost(['restore', '--from', file, '--data-dir', target, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readdirSync(target).sort()).toEqual(['documents', 'hub-lock.sqlite', 'outpost.sqlite']);
    expect(readdirSync(join(target, 'documents'))).toEqual([]);
    const users = await outpost(['tokens', 'create', '--email', 'rep@example.com', '--data-dir', target]);
    expect(users.code, users.stderr).toBe(0);
    expect((await outpost(['tokens', 'create', '--email', 'other@example.com', '--data-dir', target])).code).toBe(1);

    // Backups too are replaced only with --force.
    const again = await outpost(['backup', '--to', file, '--data-dir', target]);
    expect([again.code, again.stderr]).toEqual([1, `outpost: ${file} already exists; add --force to replace it`]);
    expect((await outpost(['backup', '--to', file, '--data-dir', target, '--force'])).code).toBe(0);
  });

  it('refuses bad inputs with one line and a non-zero exit, leaving nothing behind', async () => {
    const dir = tempDir();
    await outpost(['users', 'add', '--email', 'rep@example.com', '--name', 'Rep', '--role', 'admin', '--password', 'rep-password-1', '--data-dir', dir]);
    const files = tempDir();
    const good = join(files, 'good.sqlite');
    expect((await outpost(['backup', '--to', good, '--data-dir', dir])).code).toBe(0);

    const text = join(files, 'notes.txt');
    writeFileSync(text, 'not a database at all, just some words that go on for a while '.repeat(100));
    const foreign = join(files, 'foreign.sqlite');
    new Database(foreign).exec('CREATE TABLE recipes (name TEXT)').close();
    const tooNew = join(files, 'too-new.sqlite');
    copyFileSync(good, tooNew);
    const raised = new Database(tooNew);
    raised.pragma('user_version = 9999');
    raised.close();
    const damaged = join(files, 'damaged.sqlite');
    copyFileSync(good, damaged);
    scribble(damaged);

    const empty = tempDir();
    // Each restore into a folder of its own: the cases run at once, and each takes the folder's lock.
    const targets = tempDir();
    let count = 0;
    const restoreInto = () => join(targets, `target-${++count}`);
    const cases: [string[], number, RegExp][] = [
      [['backup', '--data-dir', dir], 2, /^outpost: --to is required/],
      [['backup', '--to', join(files, 'x.sqlite'), '--data-dir', empty], 1, /^outpost: there is no Outpost database in .+ \(no outpost\.sqlite\)$/],
      [['backup', '--to', join(files, 'no-such-folder', 'x.sqlite'), '--data-dir', dir], 1, /^outpost: the folder .+no-such-folder does not exist$/],
      [['backup', '--to', join(dir, 'outpost.sqlite'), '--data-dir', dir, '--force'], 1, /^outpost: --to must name a new file/],
      [['restore', '--data-dir', restoreInto()], 2, /^outpost: --from is required/],
      [['restore', '--from', join(files, 'missing.sqlite'), '--data-dir', restoreInto()], 1, /^outpost: .+missing\.sqlite is not a file$/],
      [['restore', '--from', text, '--data-dir', restoreInto()], 1, /^outpost: .+notes\.txt is not an SQLite database$/],
      [['restore', '--from', foreign, '--data-dir', restoreInto()], 1, /^outpost: .+foreign\.sqlite is an SQLite database, but not an Outpost one$/],
      [['restore', '--from', tooNew, '--data-dir', restoreInto()], 1, /^outpost: .+too-new\.sqlite was written by a newer version of Outpost \(schema 9999; this version opens up to \d+\): update Outpost to restore it$/],
      [['restore', '--from', damaged, '--data-dir', restoreInto()], 1, /^outpost: .+damaged\.sqlite is damaged \(/],
    ];
    const results = await Promise.all(cases.map(([args]) => outpost(args)));
    cases.forEach(([args, code, message], index) => {
      expect(results[index].code, args.join(' ')).toBe(code);
      oneLineError(results[index]);
      expect(results[index].stderr, args.join(' ')).toMatch(message);
    });
    for (const target of readdirSync(targets)) {
      expect(readdirSync(join(targets, target)), 'a failed restore leaves nothing but the lock it took').toEqual(['hub-lock.sqlite']);
    }
    expect(readdirSync(files).sort()).toEqual(['damaged.sqlite', 'foreign.sqlite', 'good.sqlite', 'good.sqlite.documents', 'notes.txt', 'too-new.sqlite']);
  });

  it('does not keep a copy that fails its check: a damaged database is not backed up', async () => {
    const dir = tempDir();
    await outpost(['users', 'add', '--email', 'rep@example.com', '--name', 'Rep', '--role', 'admin', '--password', 'rep-password-1', '--data-dir', dir]);
    scribble(join(dir, 'outpost.sqlite'));
    const files = tempDir();
    const result = await outpost(['backup', '--to', join(files, 'b.sqlite'), '--data-dir', dir]);
    expect(result.code).toBe(1);
    oneLineError(result);
    expect(result.stderr).toMatch(/^outpost: the copy of .+outpost\.sqlite is damaged \(.+\); nothing was written to .+b\.sqlite$/);
    expect(readdirSync(files)).toEqual([]);
  });
});

/** Overwrites pages in the middle of a database file (its tables' b-trees) with garbage, as a failing disk might. */
function scribble(file: string): void {
  expect(existsSync(file)).toBe(true);
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(4096 * 10, 0xab), 0, 4096 * 10, 4096 * 20);
  closeSync(fd);
  expect(readFileSync(file).length).toBeGreaterThan(4096 * 30);
}
