import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { SCHEMA_VERSION } from '../../electron/engine/db/migrations/index.js';
import { esbuildWebPlatform } from '../../scripts/platformVariants.mjs';

/**
 * The browser's side of the SQLite seam (db/sqliteDriver.web.ts) where it
 * runs: the engine's database opened by a dedicated worker in Chromium, on
 * SQLite compiled to WebAssembly over the Origin Private File System
 * (opfs-sahpool). The worker (test/support/wasmBrowserWorker.ts) is bundled
 * here for the browser, each module with a .web.ts side taking it as the
 * browser bundle does (scripts/platformVariants.mjs), and served from 127.0.0.1 (a secure context:
 * OPFS). Skipped, saying why, where Chromium is not installed.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WORKER = resolve(import.meta.dirname, '../support/wasmBrowserWorker.ts');

const PAGE = `<!doctype html><script type="module">
const worker = new Worker('./worker.js' + location.search, { type: 'module' });
worker.onmessage = (event) => { window.answer = event.data; };
worker.onerror = (event) => { window.answer = { error: event.message }; };
</script>`;

const TYPES: Record<string, string> = { html: 'text/html', js: 'text/javascript', wasm: 'application/wasm' };

describe.skipIf(!existsSync(CHROMIUM))(`the engine's database in a browser worker (Chromium at ${CHROMIUM})`, () => {
  let dir: string;
  let server: Server;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'outpost-wasm-browser-'));
    const built = await esbuild.build({ entryPoints: [WORKER], bundle: true, format: 'esm', platform: 'browser', outfile: join(dir, 'worker.js'), plugins: [esbuildWebPlatform()], logLevel: 'silent', metafile: true });
    // sqlite-wasm finds its .wasm beside the script (new URL('sqlite3.wasm', import.meta.url)).
    const wasmPackage = dirname(createRequire(import.meta.url).resolve('@sqlite.org/sqlite-wasm/package.json'));
    copyFileSync(join(wasmPackage, 'dist/sqlite3.wasm'), join(dir, 'sqlite3.wasm'));
    writeFileSync(join(dir, 'index.html'), PAGE);
    expect(Object.keys(built.metafile.inputs).filter((input) => /better-sqlite3|db\/sqliteDriver\.ts$/.test(input))).toEqual([]);
    server = createServer((request, response) => {
      const name = new URL(request.url ?? '/', 'http://x').pathname.slice(1) || 'index.html';
      const file = join(dir, name);
      if (!existsSync(file)) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': TYPES[name.split('.').pop()!] ?? 'application/octet-stream' }).end(readFileSync(file));
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM });
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens and migrates it in OPFS, with WAL under exclusive locking, and keeps its rows across page loads', async () => {
    const page = await (await browser.newContext()).newPage();
    const answer = async (query: string) => {
      await page.goto(`${origin}/${query}`);
      await page.waitForFunction(() => (window as { answer?: unknown }).answer !== undefined);
      return page.evaluate(() => (window as { answer?: unknown }).answer) as Promise<{ found?: Record<string, unknown>; error?: string }>;
    };

    const first = await answer('?write=3');
    expect(first.error).toBeUndefined();
    expect(first.found).toEqual({
      journal: 'truncate',
      locking: 'exclusive',
      tempStore: 2,
      pageSize: 16384,
      schema: SCHEMA_VERSION,
      searchIndexes: 5,
      now: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      rows: 3,
      duplicateCode: 'SQLITE_CONSTRAINT_PRIMARYKEY',
      notStorageFault: true,
    });
    // A new worker on a new page load: the rows were kept in the Origin Private File System.
    expect((await answer('?write=2')).found).toMatchObject({ rows: 5, schema: SCHEMA_VERSION });
  });
});
