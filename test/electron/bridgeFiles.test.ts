import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toBridgeResponse, toInjectOptions } from '../../electron/desktop/bridgeRequest.js';
import { localAccessToken } from '../../electron/desktop/localUser.js';
import { openEngine } from '../../electron/engine/engine.js';
import { createHttpApp } from '../../electron/engine/http/app.js';
import { dispositionFilename, isJsonContentType } from '../../shared/bridge.js';

// File answers (CSV, vCard and iCalendar exports) cross the desktop bridge as
// text with their type and file name; JSON answers stay parsed envelopes.

const BOM = '\uFEFF';
const CSV = `${BOM}id,name\r\n1,Zoë "Z" Ångström\r\n`;

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  app.get('/csv', async (_request, reply) =>
    reply.type('text/csv; charset=utf-8').header('Content-Disposition', 'attachment; filename="contacts.csv"').header('X-Request-Id', 'req-1').send(CSV));
  app.get('/vcard', async (_request, reply) =>
    reply.type('text/vcard; charset=utf-8').header('Content-Disposition', `attachment; filename="contacts.vcf"; filename*=UTF-8''Kontakte%20M%C3%BCller.vcf`).send('BEGIN:VCARD\r\nEND:VCARD\r\n'));
  app.get('/ics', async (_request, reply) => reply.type('text/calendar; charset=utf-8').send('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n'));
  app.get('/empty', async (_request, reply) => reply.type('text/csv; charset=utf-8').header('Content-Disposition', 'attachment; filename="tasks.csv"').send(''));
  app.get('/json', async (_request, reply) => reply.type('application/json; charset=utf-8').send({ data: { id: 1 }, meta: { type: 'contact' } }));
  app.get('/problem', async (_request, reply) => reply.code(422).type('application/problem+json').send({ errors: [] }));
  app.delete('/gone', async (_request, reply) => reply.code(204).send());
  await app.ready();
});
afterAll(() => app.close());

describe('toBridgeResponse', () => {
  it('hands a CSV answer over as its text, byte order mark and all, with its type and file name', async () => {
    const answer = toBridgeResponse(await app.inject({ method: 'GET', url: '/csv' }));
    expect(answer).toEqual({ status: 200, body: null, requestId: 'req-1', text: CSV, contentType: 'text/csv; charset=utf-8', filename: 'contacts.csv' });
    expect(answer.text?.charCodeAt(0)).toBe(0xfeff);
  });

  it('prefers the UTF-8 file name of a Content-Disposition, and leaves it out when none is given', async () => {
    const vcard = toBridgeResponse(await app.inject({ method: 'GET', url: '/vcard' }));
    expect([vcard.text, vcard.contentType, vcard.filename]).toEqual(['BEGIN:VCARD\r\nEND:VCARD\r\n', 'text/vcard; charset=utf-8', 'Kontakte Müller.vcf']);
    const ics = toBridgeResponse(await app.inject({ method: 'GET', url: '/ics' }));
    expect(ics).toMatchObject({ status: 200, body: null, text: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n', contentType: 'text/calendar; charset=utf-8' });
    expect(ics.filename).toBeUndefined();
  });

  it('hands over an empty export as an empty file, not as "no answer"', async () => {
    const empty = toBridgeResponse(await app.inject({ method: 'GET', url: '/empty' }));
    expect(empty).toMatchObject({ status: 200, body: null, text: '', contentType: 'text/csv; charset=utf-8', filename: 'tasks.csv' });
  });

  it('keeps JSON answers (envelopes and errors) parsed, without text', async () => {
    const json = toBridgeResponse(await app.inject({ method: 'GET', url: '/json' }));
    expect(json.body).toEqual({ data: { id: 1 }, meta: { type: 'contact' } });
    expect(json.text).toBeUndefined();
    const problem = toBridgeResponse(await app.inject({ method: 'GET', url: '/problem' }));
    expect([problem.status, problem.body, problem.text]).toEqual([422, { errors: [] }, undefined]);
    const gone = toBridgeResponse(await app.inject({ method: 'DELETE', url: '/gone' }));
    expect([gone.status, gone.body, gone.text]).toEqual([204, null, undefined]);
  });
});

describe("the desktop app's exports", () => {
  it('arrive through the in-process bridge as files, and their refusals as error envelopes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outpost-bridge-files-'));
    const engine = openEngine({ dataDir: dir });
    try {
      const token = await localAccessToken(engine);
      const app = await createHttpApp(engine, { rateLimitPerHour: 0 });
      const send = async (path: string, query?: Record<string, string>) => toBridgeResponse(await app.inject(toInjectOptions({ method: 'GET', path, query }, token)!));
      for (const last_name of ['Adams', 'Müller']) {
        const created = toBridgeResponse(await app.inject(toInjectOptions({ method: 'POST', path: '/v2/contacts', body: { data: { last_name, tags: ['fair'] } } }, token)!));
        expect(created.status).toBe(200);
      }

      const csv = await send('/v2/contacts/export.csv', { tag: 'fair', sort_by: 'last_name:desc' });
      expect([csv.status, csv.body, csv.contentType, csv.filename]).toEqual([200, null, 'text/csv; charset=utf-8', 'contacts.csv']);
      const lines = csv.text!.trim().split(/\r?\n/);
      expect(lines).toHaveLength(3);
      expect(lines[1]).toContain('Müller');
      expect(lines[2]).toContain('Adams');

      const vcf = await send('/v2/contacts/export.vcf');
      expect([vcf.contentType, vcf.filename]).toEqual(['text/vcard; charset=utf-8', 'contacts.vcf']);
      expect(vcf.text?.match(/^BEGIN:VCARD/gm)).toHaveLength(2);

      const refused = await send('/v2/contacts/export.csv', { sort_by: 'shoe_size' });
      expect(refused.status).toBe(400);
      expect(refused.text).toBeUndefined();
      expect((refused.body as { errors: unknown[] }).errors.length).toBeGreaterThan(0);
      await app.close();
    } finally {
      engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('file answer headers', () => {
  it('tells JSON types from file types', () => {
    expect(isJsonContentType('application/json; charset=utf-8')).toBe(true);
    expect(isJsonContentType('application/vnd.api+json')).toBe(true);
    expect(isJsonContentType('text/csv; charset=utf-8')).toBe(false);
    expect(isJsonContentType('text/calendar')).toBe(false);
    expect(isJsonContentType(undefined)).toBe(false);
  });

  it('reads quoted, bare and encoded file names', () => {
    expect(dispositionFilename('attachment; filename="tasks.ics"')).toBe('tasks.ics');
    expect(dispositionFilename('attachment; filename=deals.csv')).toBe('deals.csv');
    expect(dispositionFilename('attachment; filename="a \\"quoted\\" name.csv"')).toBe('a "quoted" name.csv');
    expect(dispositionFilename("attachment; filename*=UTF-8''%E2%82%AC%20rates.csv")).toBe('€ rates.csv');
    expect(dispositionFilename("attachment; filename*=UTF-8''%E0%A4%A; filename=\"fallback.csv\"")).toBe('fallback.csv');
    expect(dispositionFilename('inline')).toBeUndefined();
    expect(dispositionFilename(undefined)).toBeUndefined();
  });
});
