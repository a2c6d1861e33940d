import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine, type Engine } from '../../electron/engine/engine.js';
import { DATABASE_FILE } from '../../electron/engine/db/dataFolder.js';
import { sqliteOf } from '../../electron/engine/db/database.js';

/**
 * A SQLite engine keeps token rows in memory (auth/tokens.ts) and forgets
 * them when its own connection changes a token or a user's permissions (its
 * TEMP triggers) or when any other connection commits (`data_version`,
 * db/authChangeWatch.ts). That the cache is used is shown by a revocation its
 * trigger does not hear (the trigger dropped for it): the token is still
 * taken, so the test fails if nothing is cached. The same revocation heard,
 * or made by another connection (as the command line does), is refused,
 * so the test fails if the cache outlives a change.
 */
let dataDir: string;
let engine: Engine;
let other: Database.Database;
let userId: number;

/** Another connection's commit is caught up with from the event loop's next turn (authChangeWatch.ts). */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'outpost-token-cache-'));
  engine = openEngine({ dataDir, runSequences: false });
  userId = await engine.users.create({ email: 'rep@example.com', password: 'rep-secret-1', name: 'Rita Rep', role: 'admin' });
  other = new Database(join(dataDir, DATABASE_FILE));
  other.pragma('busy_timeout = 5000');
});
afterAll(() => {
  other.close();
  engine.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the token cache of a SQLite engine', () => {
  it('keeps a token it has seen, and forgets it when its own connection revokes it', async () => {
    const token = engine.tokens.createPersonal(userId, ['read']);
    expect(engine.tokens.authenticate(token)?.userId).toBe(userId);
    const db = sqliteOf(engine.db);
    const trigger = db.prepare("SELECT sql FROM sqlite_temp_master WHERE name = 'access_tokens_auth_changed'").pluck().get() as string;
    db.exec('DROP TRIGGER temp.access_tokens_auth_changed');
    db.prepare("UPDATE access_tokens SET revoked_at = '2026-01-01T00:00:00Z' WHERE user_id = ?").run(userId);
    // sqlite_temp_master keeps the statement without its TEMP.
    db.exec(trigger.replace(/^CREATE TRIGGER /, 'CREATE TEMP TRIGGER '));
    await nextTurn();
    expect(engine.tokens.authenticate(token)?.userId).toBe(userId);

    const second = engine.tokens.createPersonal(userId, ['read']);
    expect(engine.tokens.authenticate(second)?.userId).toBe(userId);
    db.prepare("UPDATE access_tokens SET revoked_at = '2026-01-01T00:00:00Z' WHERE user_id = ?").run(userId);
    expect(engine.tokens.authenticate(second)).toBeNull();
    expect(engine.tokens.authenticate(token)).toBeNull();
  });

  it("follows a user's role and status changed on its own connection at once", async () => {
    const token = engine.tokens.createPersonal(userId, ['read']);
    expect(engine.tokens.authenticate(token)?.role).toBe('admin');
    engine.db.prepare("UPDATE users SET role = 'user' WHERE id = ?").run(userId);
    expect(engine.tokens.authenticate(token)?.role).toBe('user');
    engine.db.prepare("UPDATE users SET status = 'inactive' WHERE id = ?").run(userId);
    expect(engine.tokens.authenticate(token)).toBeNull();
    engine.db.prepare("UPDATE users SET status = 'active', role = 'admin' WHERE id = ?").run(userId);
    expect(engine.tokens.authenticate(token)?.role).toBe('admin');
  });

  it('forgets what it kept when another connection commits (the command line revoking a token, demoting a user)', async () => {
    const token = engine.tokens.createPersonal(userId, ['read']);
    await nextTurn();
    expect(engine.tokens.authenticate(token)?.role).toBe('admin');
    other.prepare("UPDATE users SET role = 'user' WHERE id = ?").run(userId);
    await nextTurn();
    expect(engine.tokens.authenticate(token)?.role).toBe('user');
    other.prepare("UPDATE access_tokens SET revoked_at = '2026-01-01T00:00:00Z' WHERE user_id = ?").run(userId);
    await nextTurn();
    expect(engine.tokens.authenticate(token)).toBeNull();
    other.prepare("UPDATE users SET role = 'admin' WHERE id = ?").run(userId);
  });

  it('leaves other connections free to write the tables its triggers watch (they are its own, TEMP)', () => {
    expect(() => other.prepare("UPDATE users SET role = 'admin' WHERE id = ?").run(userId)).not.toThrow();
    expect(other.prepare("SELECT count(*) FROM sqlite_master WHERE name LIKE '%auth_changed'").pluck().get()).toBe(0);
  });
});
