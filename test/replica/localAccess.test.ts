import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openEngine, type Engine } from '../../electron/engine/engine.js';
import { replicaAccessToken } from '../../electron/engine/localAccess.js';

/** The app's token on a replica engine (a real SQLite file): one per run, the last run's gone when the next begins. */
const opened: { engine: Engine; dir: string }[] = [];
afterEach(() => {
  for (const { engine, dir } of opened.splice(0)) {
    engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('the app\'s token on a replica', () => {
  it('is made anew each run, and the run before\'s is deleted, even one that ended without revoking it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outpost-local-access-'));
    let engine = openEngine({ dataDir: dir, replica: true });
    opened.push({ engine, dir });
    const userId = await engine.users.create({ email: 'rep@example.com', name: 'Rep', role: 'user', password: 'a long enough password' });
    const personalTokens = () => engine.db.prepare("SELECT count(*) FROM access_tokens WHERE user_id = ? AND kind = 'personal'").pluck().get(userId);

    const first = replicaAccessToken(engine, userId);
    expect(engine.tokens.authenticate(first)?.userId).toBe(userId);
    // The run ends without revoking its token (a browser tab closed): the next run, on the same file, starts.
    engine.close();
    engine = openEngine({ dataDir: dir, replica: true });
    opened[0] = { engine, dir };
    const second = replicaAccessToken(engine, userId);
    expect(engine.tokens.authenticate(first)).toBeNull();
    expect(engine.tokens.authenticate(second)?.userId).toBe(userId);
    // In the same run too (a browser's engine led by another tab's worker): one token at a time.
    const third = replicaAccessToken(engine, userId);
    expect(engine.tokens.authenticate(second)).toBeNull();
    expect(engine.tokens.authenticate(third)?.userId).toBe(userId);
    expect(personalTokens()).toBe(1);
  });
});
