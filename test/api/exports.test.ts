import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import ICAL from 'ical.js';
import { call, codes, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
const admin = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.adminToken, data });
const agent = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.agentToken, data });

/** An export read back: its header row and its rows as objects by column. */
async function exported(path: string, token = hub.adminToken): Promise<{ status: number; headers: Headers; columns: string[]; rows: Record<string, string>[]; text: string }> {
  const answer = await call(hub, 'GET', path, { token });
  if (answer.status !== 200) return { status: answer.status, headers: answer.headers, columns: [], rows: [], text: answer.text };
  const [columns, ...rows] = parse(answer.text, { bom: true }) as string[][];
  return { status: answer.status, headers: answer.headers, columns: columns ?? [], rows: rows.map((r) => Object.fromEntries(r.map((v, i) => [columns[i], v]))), text: answer.text };
}

/** Every id the list answers for these parameters, page after page. */
async function listIds(path: string, query = '', token = hub.adminToken): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const answer = await call(hub, 'GET', `${path}?per_page=100&page=${page}${query ? `&${query}` : ''}`, { token });
    ids.push(...answer.body.items.map((i: any) => i.data.id));
    if (!answer.body.meta.links.next_page) return ids;
  }
}

let ada: any;
let bob: any;
let org: any;

beforeAll(async () => {
  hub = await startTestHub();
  await admin('POST', '/v2/contact/custom_fields', { name: 'Seats', type: 'number' });
  await admin('POST', '/v2/contact/custom_fields', { name: 'Interests', type: 'multi_select_list', choices: ['Boats', 'Cars'] });
  await admin('POST', '/v2/contact/custom_fields', { name: 'Never used', type: 'string' });
  org = (await agent('POST', '/v2/contacts', { is_organization: true, name: 'Export Org', customer_status: 'current', billing_address: { city: 'Bath' } })).body.data;
  ada = (await agent('POST', '/v2/contacts', {
    first_name: 'Ada', last_name: 'Lovelace', customer_status: 'current', contact_id: org.id, tags: ['math', 'vip'],
    address: { line1: '1 Analytical Row', city: 'London' }, custom_fields: { Seats: -5, Interests: ['Boats', 'Cars'] },
  })).body.data;
  bob = (await agent('POST', '/v2/contacts', {
    first_name: 'Bob', last_name: '=HYPERLINK("http://evil.example","click")', phone: '+1 555 0100', email: '@bob', description: '-2+3', title: '\tTabbed',
  })).body.data;
});
afterAll(() => hub.close());

describe('CSV export of list views', () => {
  it('answers a CSV attachment whose columns are the record JSON\'s fields, nested ones flattened', async () => {
    const { status, headers, columns, rows, text } = await exported('/v2/contacts/export.csv');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(headers.get('content-disposition')).toBe('attachment; filename="contacts.csv"');
    // UTF-8 with a BOM (fetch's text() drops it, so read the bytes), CRLF line ends.
    const bytes = Buffer.from(await (await fetch(`${hub.url}/v2/contacts/export.csv`, { headers: { Authorization: `Bearer ${hub.adminToken}` } })).arrayBuffer());
    expect(bytes.subarray(0, 6).toString('latin1')).toBe('\xEF\xBB\xBFid,');
    expect(text).toContain('\r\n');
    const json = (await admin('GET', `/v2/contacts/${ada.id}`)).body.data;
    // The JSON's order, objects opened up in place, custom fields in their definitions' order (unused ones too).
    const expected = Object.entries(json).flatMap(([key, value]) => {
      if (key === 'custom_fields') return ['custom_fields.Seats', 'custom_fields.Interests', 'custom_fields.Never used'];
      if (key.endsWith('address')) return ['line1', 'city', 'postal_code', 'state', 'country'].map((k) => `${key}.${k}`);
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? [] : [key];
    });
    expect(columns).toEqual(expected);
    const row = rows.find((r) => r.id === String(ada.id))!;
    expect(row).toMatchObject({
      first_name: 'Ada', last_name: 'Lovelace', is_organization: 'false', contact_id: String(org.id), 'address.city': 'London', 'address.postal_code': '',
      'billing_address.city': '', tags: 'math; vip', 'custom_fields.Seats': '-5', 'custom_fields.Interests': 'Boats; Cars', 'custom_fields.Never used': '',
    });
    expect(rows.find((r) => r.id === String(org.id))).toMatchObject({ 'billing_address.city': 'Bath', name: 'Export Org' });
  });

  it('guards cells a spreadsheet would run as formulas, but not plain numbers', async () => {
    const { rows } = await exported('/v2/contacts/export.csv');
    const row = rows.find((r) => r.id === String(bob.id))!;
    expect(row).toMatchObject({
      last_name: '\'=HYPERLINK("http://evil.example","click")', name: 'Bob =HYPERLINK("http://evil.example","click")',
      phone: "'+1 555 0100", email: "'@bob", description: "'-2+3", title: "'\tTabbed",
    });
    expect(rows.find((r) => r.id === String(ada.id))!['custom_fields.Seats']).toBe('-5');
  });

  it('honours the list\'s filters and sort, and refuses what the list refuses', async () => {
    const query = 'customer_status=current&sort_by=last_name:desc';
    const { rows } = await exported(`/v2/contacts/export.csv?${query}`);
    expect(rows.map((r) => Number(r.id))).toEqual(await listIds('/v2/contacts', query));
    expect(rows.map((r) => r.last_name)).toEqual(['Lovelace', '']);
    expect((await exported('/v2/contacts/export.csv?tag=math')).rows.map((r) => Number(r.id))).toEqual([ada.id]);
    // Paging parameters are ignored: an export has every matching record.
    expect((await exported('/v2/contacts/export.csv?per_page=1&page=2')).rows).toHaveLength(3);
    const unknown = await admin('GET', '/v2/contacts/export.csv?colour=red');
    expect(unknown.status).toBe(400);
    expect(codes(unknown)).toEqual(['invalid_param']);
    expect(codes(await admin('GET', '/v2/contacts/export.csv?sort_by=colour'))).toEqual(['invalid_param']);
    expect((await call(hub, 'GET', '/v2/contacts/export.csv')).status).toBe(401);
  });

  it('exports every matching record past the list\'s page size', async () => {
    for (let i = 0; i < 130; i++) await agent('POST', '/v2/tasks', { content: `Bulk task ${i}` });
    const { rows } = await exported('/v2/tasks/export.csv?q=Bulk');
    expect(rows).toHaveLength(130);
    expect(rows.map((r) => Number(r.id))).toEqual(await listIds('/v2/tasks', 'q=Bulk'));
  });

  it('gives the header row alone when nothing matches', async () => {
    const { columns, rows } = await exported('/v2/contacts/export.csv?customer_status=past');
    expect(rows).toEqual([]);
    expect(columns).toContain('custom_fields.Seats');
    expect(columns[0]).toBe('id');
  });

  it('serves every list view the UI shows, through one exporter over each list', async () => {
    const contactId = ada.id;
    const deal = (await agent('POST', '/v2/deals', { name: 'Export Deal', contact_id: contactId })).body.data;
    await agent('POST', '/v2/leads', { last_name: 'Leadly', organization_name: 'Lead Org' });
    await agent('POST', '/v2/notes', { resource_type: 'contact', resource_id: contactId, content: 'A note' });
    await admin('POST', '/v2/products', { name: 'Widget', prices: [{ amount: '10.00', currency: 'USD' }], cost: 4, cost_currency: 'USD' });
    await agent('POST', '/v2/orders', { deal_id: deal.id });
    const sequence = (await admin('POST', '/v2/sequences', { name: 'Export Sequence', steps: [{ delay_from_previous_step: 0, delay_from_previous_step_unit: 'hours', action_type: 'task', action_properties: { task_content: 'Ring' } }] })).body.data;
    expect((await agent('POST', '/v2/sequence_enrollments', { sequence_id: sequence.id, resource_type: 'contact', resource_id: contactId })).status).toBe(200);
    for (const resource of ['contacts', 'leads', 'deals', 'tasks', 'notes', 'products', 'orders', 'sequences', 'sequence_enrollments']) {
      const { status, headers, rows } = await exported(`/v2/${resource}/export.csv`);
      expect(status, resource).toBe(200);
      expect(headers.get('content-disposition'), resource).toBe(`attachment; filename="${resource}.csv"`);
      expect(rows.length, resource).toBeGreaterThan(0);
      expect(rows.map((r) => Number(r.id)), resource).toEqual(await listIds(`/v2/${resource}`));
    }
    const deals = await exported('/v2/deals/export.csv');
    expect(deals.columns).toEqual(expect.arrayContaining(['name', 'value', 'tags']));
    // Arrays of objects (a product's prices) as JSON, joined like other arrays.
    const product = (await admin('GET', '/v2/products')).body.items[0].data;
    expect((await exported('/v2/products/export.csv')).rows[0].prices).toBe(JSON.stringify(product.prices[0]));
  });

  it('exports only what the caller can see', async () => {
    await admin('POST', '/v2/notes', { resource_type: 'contact', resource_id: ada.id, content: 'Admin only', type: 'restricted' });
    const asAdmin = await exported('/v2/notes/export.csv');
    const asAgent = await exported('/v2/notes/export.csv', hub.agentToken);
    expect(asAdmin.rows.map((r) => r.content)).toContain('Admin only');
    expect(asAgent.rows.map((r) => r.content)).not.toContain('Admin only');
    expect(asAgent.rows.map((r) => Number(r.id))).toEqual(await listIds('/v2/notes', '', hub.agentToken));
    // A product's cost is an administrator's to see.
    expect((await exported('/v2/products/export.csv')).rows[0].cost).toBe('4');
    expect((await exported('/v2/products/export.csv', hub.agentToken)).rows[0].cost).toBe('');
  });
});

describe('tasks as iCalendar', () => {
  let due: any;
  let done: any;
  let undated: any;

  beforeAll(async () => {
    due = (await agent('POST', '/v2/tasks', { content: 'Call Ada, about; the engine\nBring the notes', due_date: '2026-03-10T14:00:00Z', remind_at: '2026-03-10T13:30:00Z' })).body.data;
    done = (await agent('POST', '/v2/tasks', { content: 'Send the quote', due_date: '2026-03-01T09:00:00Z', completed: true })).body.data;
    undated = (await agent('POST', '/v2/tasks', { content: 'Someday' })).body.data;
  });

  const events = (text: string) => new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');
  const byUid = (text: string) => new Map(events(text).map((e) => [e.getFirstPropertyValue('uid') as string, e]));

  it('answers a calendar with one event per task that has a due date', async () => {
    const answer = await admin('GET', '/v2/tasks/export.ics');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="tasks.ics"');
    const calendar = new ICAL.Component(ICAL.parse(answer.text));
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    const uids = byUid(answer.text);
    expect(uids.has(`task-${due.id}@127.0.0.1`)).toBe(true);
    expect(uids.has(`task-${undated.id}@127.0.0.1`)).toBe(false);
    const event = new ICAL.Event(uids.get(`task-${due.id}@127.0.0.1`)!);
    expect(event.summary).toBe('Call Ada, about; the engine');
    expect(event.description).toBe('Call Ada, about; the engine\nBring the notes');
    expect(event.startDate.toJSDate().toISOString()).toBe('2026-03-10T14:00:00.000Z');
    const alarm = uids.get(`task-${due.id}@127.0.0.1`)!.getFirstSubcomponent('valarm')!;
    expect(alarm.getFirstPropertyValue('action')).toBe('DISPLAY');
    expect((alarm.getFirstPropertyValue('trigger') as any).toJSDate().toISOString()).toBe('2026-03-10T13:30:00.000Z');
    // UIDs stay the same from one export to the next, so calendar apps update rather than duplicate.
    expect([...byUid((await admin('GET', '/v2/tasks/export.ics')).text).keys()]).toEqual([...uids.keys()]);
  });

  it('marks completed tasks and gives them no alarm', async () => {
    const text = (await admin('GET', '/v2/tasks/export.ics')).text;
    const completed = byUid(text).get(`task-${done.id}@127.0.0.1`)!;
    expect(completed.getFirstPropertyValue('summary')).toBe('✓ Send the quote');
    expect(completed.getFirstProperty('categories')!.getValues()).toEqual(['Outpost task', 'Completed']);
    expect(completed.getFirstSubcomponent('valarm')).toBeNull();
    expect(byUid(text).get(`task-${due.id}@127.0.0.1`)!.getFirstProperty('categories')!.getValues()).toEqual(['Outpost task']);
  });

  it('takes the task list\'s filters', async () => {
    const open = byUid((await admin('GET', '/v2/tasks/export.ics?completed=false')).text);
    expect(open.has(`task-${due.id}@127.0.0.1`)).toBe(true);
    expect(open.has(`task-${done.id}@127.0.0.1`)).toBe(false);
    expect(codes(await admin('GET', '/v2/tasks/export.ics?colour=red'))).toEqual(['invalid_param']);
  });
});
