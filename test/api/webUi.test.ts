import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, startTestHub, type TestHub } from '../support/testHub.js';
import { CONTENT_SECURITY_POLICY } from '../../electron/engine/http/app.js';

/**
 * The hub serving the web UI (a stand-in index.html in a temp folder, real
 * HTTP): its screens' paths get the page, an address the app has no screen
 * for gets the page too (the app shows "Page not found") with a 404, and the
 * interfaces keep their JSON 404s.
 */
let hub: TestHub;
let webRoot: string;
const html = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

beforeAll(async () => {
  webRoot = mkdtempSync(join(tmpdir(), 'outpost-web-'));
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>Outpost</title>');
  hub = await startTestHub({ webRoot });
});
afterAll(async () => {
  await hub.close();
  rmSync(webRoot, { recursive: true, force: true });
});

describe('the web UI on the hub', () => {
  it('serves the page at every screen, the Notes screen included', async () => {
    for (const path of ['/', '/notes', '/contacts/12', '/tasks']) {
      const answer = await call(hub, 'GET', path, { token: null, headers: html });
      expect([path, answer.status, answer.text]).toEqual([path, 200, '<!doctype html><title>Outpost</title>']);
    }
  });

  it('serves the page with a 404 and the strict policy at an unknown address, so the app can say so', async () => {
    const answer = await call(hub, 'GET', '/somewhere/else?x=1', { token: null, headers: html });
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(answer.text).toContain('<title>Outpost</title>');
  });

  it('keeps JSON 404s for programs and for the interfaces, whatever they accept', async () => {
    const program = await call(hub, 'GET', '/somewhere/else', { token: null });
    expect([program.status, program.body.errors[0].error.code]).toEqual([404, 'incorrect_path']);
    const missingFile = await call(hub, 'POST', '/somewhere/else', { token: null, headers: html });
    expect(missingFile.headers.get('content-type')).toContain('application/json');
    for (const path of ['/v2/nothing-here', '/oauth2/nothing-here']) {
      const answer = await call(hub, 'GET', path, { token: hub.adminToken, headers: html });
      expect([path, answer.status, answer.headers.get('content-type')]).toEqual([path, 404, 'application/json; charset=utf-8']);
    }
  });
});
