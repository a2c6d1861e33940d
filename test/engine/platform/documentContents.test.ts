import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openEngine, type Engine } from '../../../electron/engine/engine.js';
import { TableContents } from '../../../electron/engine/resources/documentContents.js';
import { documentFolder } from '../../../electron/engine/platform/files.js';
import * as webFiles from '../../../electron/engine/platform/files.web.js';

const BYTES = Uint8Array.from([37, 80, 68, 70, 0, 255]);
const opened: Array<{ engine: Engine; dir: string }> = [];
afterEach(() => opened.splice(0).forEach(({ engine, dir }) => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
}));

function replicaEngine(): { engine: Engine; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'outpost-contents-'));
  const engine = openEngine({ dataDir: dir, replica: true });
  opened.push({ engine, dir });
  return { engine, dir };
}

describe('documents\' bytes', () => {
  it('are a file each in the data folder on Node', () => {
    const { dir } = replicaEngine();
    const folder = documentFolder(join(dir, 'documents'))!;
    folder.write(7, BYTES);
    expect(existsSync(join(dir, 'documents', '7'))).toBe(true);
    expect(new Uint8Array(folder.read(7)!)).toEqual(BYTES);
    folder.remove(7);
    expect(folder.read(7)).toBeNull();
  });

  it('are rows of a table the SQLite database gains where there are no files (the browser), removed with their documents', () => {
    expect(webFiles.documentFolder('/outpost')).toBeNull();
    const { engine } = replicaEngine();
    const table = new TableContents(engine.ctx, 'own table');
    table.write(7, BYTES);
    expect(new Uint8Array(table.read(7)!)).toEqual(BYTES);
    expect(table.read(8)).toBeNull();
    table.remove(7);
    expect(table.read(7)).toBeNull();
    // Made if missing: opening again finds it there.
    expect(() => new TableContents(engine.ctx, 'own table')).not.toThrow();
  });
});
