import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { call, codes, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
let contactId: number;

async function upload(query: string, content: Buffer | string, contentType = 'application/pdf', token = hub.agentToken) {
  const body = typeof content === 'string' ? content : new Uint8Array(content);
  const response = await fetch(`${hub.url}/v2/documents?${query}`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': contentType }, body });
  return { status: response.status, body: (await response.json()) as any };
}

/** Whether a document's bytes are kept: a file under the data folder on SQLite, a row of document_contents on PostgreSQL. */
function bytesKept(id: number): boolean {
  if (hub.engine.db.dialect === 'sqlite') return existsSync(join(hub.dataDir, 'documents', String(id)));
  return hub.engine.db.prepare('SELECT 1 FROM document_contents WHERE id = ?').get(id) !== undefined;
}

beforeAll(async () => {
  hub = await startTestHub();
  contactId = (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Filed' } })).body.data.id;
});
afterAll(() => hub.close());

describe('documents', () => {
  it('stores an uploaded file (in the data folder, or the database on PostgreSQL) and serves it through a signed link', async () => {
    const content = Buffer.from('%PDF-1.4 quote for Filed');
    const answer = await upload(`resource_type=contact&resource_id=${contactId}&name=quote%20v2.pdf`, content);
    expect(answer.status).toBe(200);
    expect(answer.body.meta.type).toBe('document');
    const document = answer.body.data;
    expect(document).toMatchObject({ resource_type: 'contact', resource_id: contactId, name: 'quote v2.pdf', content_type: 'application/pdf', size: content.length, creator_id: hub.agentId });
    expect(bytesKept(document.id)).toBe(true);

    const download = await fetch(document.download_url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toContain("filename*=UTF-8''quote%20v2.pdf");
    expect(Buffer.from(await download.arrayBuffer())).toEqual(content);
  });

  it('serves only safe types as they were uploaded, anything else as bytes, sandboxed and never sniffed', async () => {
    const owner = (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Typed' } })).body.data.id;
    const served = async (contentType: string) => {
      const uploaded = await upload(`resource_type=contact&resource_id=${owner}&name=file`, '<script>alert(1)</script>', contentType);
      expect(uploaded.body.data.content_type).toBe(contentType);
      const download = await fetch(uploaded.body.data.download_url);
      expect(download.status).toBe(200);
      expect(download.headers.get('x-content-type-options')).toBe('nosniff');
      expect(download.headers.get('content-disposition')).toMatch(/^attachment;/);
      const policy = download.headers.get('content-security-policy') ?? '';
      expect(policy).toContain('sandbox');
      expect(policy).toContain("default-src 'none'");
      return download.headers.get('content-type');
    };
    for (const risky of ['text/html', 'image/svg+xml', 'application/javascript', 'text/javascript', 'application/xhtml+xml', 'text/xml', 'Text/HTML']) {
      expect(await served(risky), risky).toBe('application/octet-stream');
    }
    for (const safe of ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf']) expect(await served(safe), safe).toBe(safe);
    expect(await served('text/plain')).toBe('text/plain; charset=utf-8');
  });

  it('refuses a forged link, and any link after 90 minutes', async () => {
    const document = (await upload(`resource_type=contact&resource_id=${contactId}&name=a.txt`, 'hello', 'text/plain')).body.data;
    const url = new URL(document.download_url);
    const forged = new URL(url);
    forged.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    expect((await fetch(forged)).status).toBe(403);
    expect((await fetch(`${url.origin}${url.pathname}`)).status).toBe(403);
    hub.clock.advance(89 * 60 * 1000);
    expect((await fetch(url)).status).toBe(200);
    hub.clock.advance(2 * 60 * 1000);
    const expired = await fetch(url);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as any).errors[0].error.code).toBe('forbidden');
    // Reading the document again gives a fresh link.
    const fresh = (await call(hub, 'GET', `/v2/documents/${document.id}`, { token: hub.agentToken })).body.data.download_url;
    expect((await fetch(fresh)).status).toBe(200);
    hub.clock.set('2026-03-02T10:00:00Z');
  });

  it('lists by required resource_type and resource_id (comma lists)', async () => {
    const other = (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Other' } })).body.data.id;
    await upload(`resource_type=contact&resource_id=${other}&name=b.txt`, 'b', 'text/plain');
    const both = await call(hub, 'GET', `/v2/documents?resource_type=contact,deal&resource_id=${contactId},${other}`, { token: hub.agentToken });
    expect(both.body.items.length).toBe(3);
    expect(both.body.items[0].data.download_url).toMatch(/\/downloads\/documents\/\d+\?expires=\d+&signature=[0-9a-f]{64}$/);
    const named = await call(hub, 'GET', `/v2/documents?resource_type=contact&resource_id=${other}&name=b.txt`, { token: hub.agentToken });
    expect(named.body.items.map((i: any) => i.data.name)).toEqual(['b.txt']);
    expect(codes(await call(hub, 'GET', `/v2/documents?resource_id=${contactId}`, { token: hub.agentToken }))).toEqual(['invalid_param']);
    expect(codes(await call(hub, 'GET', '/v2/documents?resource_type=contact', { token: hub.agentToken }))).toEqual(['invalid_param']);
    expect(codes(await call(hub, 'GET', '/v2/documents?resource_type=planet&resource_id=1', { token: hub.agentToken }))).toEqual(['invalid_param']);
  });

  it('checks uploads and removes files with their record', async () => {
    expect((await upload(`resource_type=contact&resource_id=999999&name=x.txt`, 'x', 'text/plain')).status).toBe(422);
    expect((await upload(`resource_type=contact&resource_id=${contactId}&name=x.txt`, '', 'text/plain')).status).toBe(422);
    expect((await upload(`resource_type=contact&resource_id=${contactId}`, 'x', 'text/plain')).status).toBe(400);
    const contact = (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Shredded' } })).body.data.id;
    const document = (await upload(`resource_type=contact&resource_id=${contact}&name=c.txt`, 'c', 'text/plain')).body.data;
    await call(hub, 'DELETE', `/v2/contacts/${contact}`, { token: hub.agentToken });
    expect((await call(hub, 'GET', `/v2/documents/${document.id}`, { token: hub.agentToken })).status).toBe(404);
    expect(bytesKept(document.id)).toBe(false);
    expect((await fetch(`${hub.url}/v2/documents?resource_type=contact&resource_id=1`)).status).toBe(401);
  });

  it('files documents on leads, deals and sales accounts (an organization’s), and removes them with it', async () => {
    const org = (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { is_organization: true, name: 'Filing Co' } })).body.data.id;
    const lead = (await call(hub, 'POST', '/v2/leads', { token: hub.agentToken, data: { last_name: 'Filed lead' } })).body.data.id;
    const deal = (await call(hub, 'POST', '/v2/deals', { token: hub.agentToken, data: { name: 'Filed deal', contact_id: org } })).body.data.id;
    for (const [type, id] of [['lead', lead], ['deal', deal], ['sales_account', org]] as const) {
      expect((await upload(`resource_type=${type}&resource_id=${id}&name=${type}.txt`, type, 'text/plain')).status, type).toBe(200);
    }
    expect((await upload(`resource_type=sales_account&resource_id=${contactId}&name=x.txt`, 'x', 'text/plain')).status).toBe(422);
    const account = (await call(hub, 'GET', `/v2/documents?resource_type=sales_account&resource_id=${org}`, { token: hub.agentToken })).body.items[0].data.id;
    await call(hub, 'DELETE', `/v2/deals/${deal}`, { token: hub.agentToken });
    await call(hub, 'DELETE', `/v2/contacts/${org}`, { token: hub.agentToken });
    expect((await call(hub, 'GET', `/v2/documents/${account}`, { token: hub.agentToken })).status).toBe(404);
  });
});
