import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';
import { startTestReplica } from '../support/testReplica.js';

let hub: TestHub;
const preview = (data: unknown, token = hub.agentToken) => call(hub, 'POST', '/v2/imports/preview', { token, data });
const importFile = (data: unknown, token = hub.agentToken) => call(hub, 'POST', '/v2/imports', { token, data });
const get = (path: string) => call(hub, 'GET', path, { token: hub.agentToken });
const count = (table: string) => hub.engine.db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
const lines = (...rows: string[]) => rows.join('\n');

beforeAll(async () => {
  hub = await startTestHub();
  const define = (type: string, data: unknown) => call(hub, 'POST', `/v2/${type}/custom_fields`, { token: hub.adminToken, data });
  await define('contact', { name: 'Segment', type: 'list', choices: ['SMB', 'Enterprise'] });
  await define('contact', { name: 'Interests', type: 'multi_select_list', choices: ['Boats', 'Cars', 'Planes'] });
  await define('lead', { name: 'Budget', type: 'number' });
});
afterAll(() => hub.close());

describe('the column mapping suggestion', () => {
  it('matches headers to field names and labels whatever their case and punctuation', async () => {
    const csv = lines('First Name,LAST-NAME,E-mail,Company,Mobile phone,Zip,Notes,Tags,segment,custom_fields.Interests,Favourite colour', 'Jane,Doe,jane@example.com,Acme,555,12345,Hi,a,SMB,Boats,blue');
    const answer = await preview({ resource_type: 'contact', csv });
    expect(answer.status).toBe(200);
    expect(answer.body.meta.type).toBe('import');
    expect(answer.body.data.mapping).toEqual({
      'First Name': 'first_name', 'LAST-NAME': 'last_name', 'E-mail': 'email', Company: 'organization_name', 'Mobile phone': 'mobile',
      Zip: 'address.postal_code', Notes: 'description', Tags: 'tags', segment: 'custom_fields.Segment',
      'custom_fields.Interests': 'custom_fields.Interests', 'Favourite colour': null,
    });
    expect(answer.body.data.headers).toEqual(Object.keys(answer.body.data.mapping));
  });

  it('maps Company to a lead\'s organization_name and a lone Name to the full name, each field once', async () => {
    const csv = lines('Name,Organization,Company,Email Address,Lead status,Budget', 'Jane Doe,Acme,Other,j@x.io,Working,100');
    const answer = await preview({ resource_type: 'lead', csv });
    expect(answer.body.data.mapping).toEqual({
      Name: 'full_name', Organization: 'organization_name', Company: null, 'Email Address': 'email', 'Lead status': 'status', Budget: 'custom_fields.Budget',
    });
  });

  it('lists the fields columns can map to, custom fields included', async () => {
    const { data } = (await preview({ resource_type: 'contact', csv: lines('Last name', 'Doe') })).body;
    const names = data.fields.map((f: any) => f.name);
    expect(names).toEqual(expect.arrayContaining(['first_name', 'last_name', 'full_name', 'organization_name', 'email', 'address.city', 'billing_address.city', 'tags', 'custom_fields.Segment', 'custom_fields.Interests']));
    expect(data.fields.find((f: any) => f.name === 'custom_fields.Segment')).toEqual({ name: 'custom_fields.Segment', label: 'Segment', required: false });
    expect(data.fields.find((f: any) => f.name === 'email')).toEqual({ name: 'email', label: 'Email', required: false });
    const leadNames = (await preview({ resource_type: 'lead', csv: lines('Last name', 'Doe') })).body.data.fields.map((f: any) => f.name);
    expect(leadNames).toEqual(expect.arrayContaining(['organization_name', 'status', 'custom_fields.Budget']));
    expect(leadNames).not.toContain('custom_fields.Segment');
  });
});

describe('the preview', () => {
  it('counts the rows, samples the first ten and uses the given mapping', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => `Person${i},x${i}@example.com`);
    const answer = await preview({ resource_type: 'contact', csv: lines('Surname,Mail', ...rows), mapping: { Surname: 'last_name' } });
    const { data } = answer.body;
    expect(data.rows).toBe(12);
    expect(data.mapping).toEqual({ Surname: 'last_name', Mail: null });
    expect(data.sample).toHaveLength(10);
    expect(data.sample[0]).toEqual({ row: 1, values: { last_name: 'Person0' } });
    expect(data.sample[9]).toEqual({ row: 10, values: { last_name: 'Person9' } });
    expect(data.errors).toEqual([]);
  });

  it('writes nothing', async () => {
    const before = [count('contacts'), count('change_log'), count('taggings')];
    await preview({ resource_type: 'contact', csv: lines('Last name,Company,Tags', 'Doe,Brand New Org,fresh') });
    expect([count('contacts'), count('change_log'), count('taggings')]).toEqual(before);
  });

  it('lists exactly the errors the import answers, for every row', async () => {
    const csv = lines(
      'First name,Last name,Customer status,Segment,Interests,Email',
      'Ok,Fine,current,SMB,Boats; Cars,ok@x.io',
      'No,,none,,,nolast@x.io',
      'Bad,Status,sometimes,Huge,Boats; Trains,bad@x.io',
      'Also,Fine,,,,',
    );
    const mapping = { 'First name': 'first_name', 'Last name': 'last_name', 'Customer status': 'customer_status', Segment: 'custom_fields.Segment', Interests: 'custom_fields.Interests', Email: 'email' };
    const previewed = (await preview({ resource_type: 'contact', csv, mapping })).body.data.errors;
    expect(previewed.map((e: any) => [e.row, e.field, e.source, e.code])).toEqual([
      [2, 'last_name', 'Last name', 'missing'],
      [3, 'customer_status', 'Customer status', 'incorrect_value'],
      [3, 'custom_fields.Segment', 'Segment', 'incorrect_value'],
      [3, 'custom_fields.Interests', 'Interests', 'incorrect_value'],
    ]);
    const refused = await importFile({ resource_type: 'contact', csv, mapping });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: any) => e.error.field)).toEqual(previewed.map((e: any) => `/rows/${e.row}/${e.field.replace('.', '/')}`));
    expect(refused.body.errors.map((e: any) => e.error.message)).toEqual(previewed.map((e: any) => `Row ${e.row}: ${e.message}`));
    expect(refused.body.errors.map((e: any) => e.error.code)).toEqual(previewed.map((e: any) => e.code));
  });
});

describe('importing a CSV file', () => {
  it('creates every row as POST /v2/contacts would, with custom fields, tags and addresses', async () => {
    const csv = lines(
      'First name,Last name,Email,City,Tags,Segment,Interests,Customer status,Billing city',
      'Ann,Archer,ann@example.com,Lyon,vip; partner,Enterprise,Boats;Planes,current,Paris',
      'Ben,Baker,,,,,,,',
    );
    const mapping = { 'First name': 'first_name', 'Last name': 'last_name', Email: 'email', City: 'address.city', Tags: 'tags', Segment: 'custom_fields.Segment', Interests: 'custom_fields.Interests', 'Customer status': 'customer_status', 'Billing city': 'billing_address.city' };
    const answer = await importFile({ resource_type: 'contact', csv, mapping });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ resource_type: 'contact', imported: 2, rejected: [] });
    const [ann, ben] = await Promise.all(answer.body.data.ids.map((id: number) => get(`/v2/contacts/${id}`).then((a) => a.body.data)));
    expect(ann).toMatchObject({
      first_name: 'Ann', last_name: 'Archer', name: 'Ann Archer', email: 'ann@example.com', is_organization: false, owner_id: hub.agentId, creator_id: hub.agentId,
      customer_status: 'current', custom_fields: { Segment: 'Enterprise', Interests: ['Boats', 'Planes'] },
      address: { city: 'Lyon', line1: null }, billing_address: { city: 'Paris' },
    });
    expect([...ann.tags].sort()).toEqual(['partner', 'vip']);
    expect(ben).toMatchObject({ first_name: 'Ben', last_name: 'Baker', email: null });
    // Each create is logged as a REST create is (devices receive them).
    const logged = hub.engine.db.prepare("SELECT resource_id FROM change_log WHERE resource_type = 'contact' AND event_type = 'created' AND resource_id IN (?, ?)").pluck().all(ann.id, ben.id);
    expect(logged).toHaveLength(2);
    // And the search finds them.
    expect((await get('/v2/contacts?q=Archer')).body.items.map((i: any) => i.data.id)).toEqual([ann.id]);
  });

  it('refuses a file with a bad row as a whole: 422 and nothing written', async () => {
    const before = [count('contacts'), count('change_log'), count('taggings')];
    const csv = lines('Last name,Tags,Company', 'Good,t1,Never Made Inc', ',t2,', 'Also good,t3,');
    const answer = await importFile({ resource_type: 'contact', csv, mapping: { 'Last name': 'last_name', Tags: 'tags', Company: 'organization_name' } });
    expect(answer.status).toBe(422);
    // Row 2 has only tags: neither a person nor an organization.
    expect(fields(answer)).toEqual(['/rows/2/last_name']);
    expect(answer.body.errors[0].error).toMatchObject({ resource: 'contact', code: 'missing' });
    expect([count('contacts'), count('change_log'), count('taggings')]).toEqual(before);
  });

  it('with skip_invalid imports the valid rows in one go and lists the others', async () => {
    const csv = lines('Last name,Customer status', 'Kept One,', 'Refused,never', 'Kept Two,past', ',');
    const answer = await importFile({ resource_type: 'contact', csv, mapping: { 'Last name': 'last_name', 'Customer status': 'customer_status' }, skip_invalid: true });
    expect(answer.status).toBe(200);
    const { data } = answer.body;
    expect(data.imported).toBe(2);
    expect(data.rejected).toEqual([{ row: 2, errors: [{ field: 'customer_status', source: 'Customer status', code: 'incorrect_value', message: expect.stringContaining('customer_status') }] }]);
    const names = await Promise.all(data.ids.map((id: number) => get(`/v2/contacts/${id}`).then((a) => a.body.data.last_name)));
    expect(names).toEqual(['Kept One', 'Kept Two']);
  });

  it('links people to their organization by name: one made per new name, existing ones reused', async () => {
    const existing = (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { is_organization: true, name: 'Existing Works' } })).body.data.id;
    const csv = lines('First,Last,Company', 'P,One,Fresh Corp', 'P,Two,fresh corp', 'P,Three,existing works', ',,Org Row Ltd', 'P,Four,Org Row Ltd');
    const answer = await importFile({ resource_type: 'contact', csv, mapping: { First: 'first_name', Last: 'last_name', Company: 'organization_name' } });
    expect(answer.status).toBe(200);
    const { ids, created_organization_ids: made } = answer.body.data;
    expect(ids).toHaveLength(5);
    const records = await Promise.all(ids.map((id: number) => get(`/v2/contacts/${id}`).then((a) => a.body.data)));
    const [one, two, three, orgRow, four] = records;
    expect(made).toHaveLength(1);
    const fresh = (await get(`/v2/contacts/${made[0]}`)).body.data;
    expect(fresh).toMatchObject({ is_organization: true, name: 'Fresh Corp', owner_id: hub.agentId });
    expect([one.contact_id, two.contact_id]).toEqual([fresh.id, fresh.id]);
    expect(three.contact_id).toBe(existing);
    expect(orgRow).toMatchObject({ is_organization: true, name: 'Org Row Ltd' });
    expect(four.contact_id).toBe(orgRow.id);
  });

  it('takes is_organization from a column, and splits a full name when no first or last name is given', async () => {
    const csv = lines('name,is_organization,first_name,last_name', 'Acme Widgets,true,,', 'Jane Mary Doe,false,,', '"Smith, John",no,,', 'Ignored Name,false,Kim,Lee');
    const answer = await importFile({ resource_type: 'contact', csv, mapping: { name: 'full_name', is_organization: 'is_organization', first_name: 'first_name', last_name: 'last_name' } });
    expect(answer.status, answer.text).toBe(200);
    const records = await Promise.all(answer.body.data.ids.map((id: number) => get(`/v2/contacts/${id}`).then((a) => a.body.data)));
    expect(records.map((r: any) => [r.is_organization, r.name, r.first_name, r.last_name])).toEqual([
      [true, 'Acme Widgets', null, null], [false, 'Jane Mary Doe', 'Jane Mary', 'Doe'], [false, 'John Smith', 'John', 'Smith'], [false, 'Kim Lee', 'Kim', 'Lee'],
    ]);
    const bad = await importFile({ resource_type: 'contact', csv: lines('Last,Org?', 'Doe,perhaps'), mapping: { Last: 'last_name', 'Org?': 'is_organization' } });
    expect(bad.body.errors.map((e: any) => [e.error.field, e.error.code])).toEqual([['/rows/1/is_organization', 'invalid_type']]);
  });

  it('imports leads through POST /v2/leads\' rules', async () => {
    const csv = lines('Full name,Company,Status,Budget', 'Lara Lead,Lead Co,,2500', ',Only Org Inc,Working,', ',,,12');
    const answer = await importFile({ resource_type: 'lead', csv, mapping: { 'Full name': 'full_name', Company: 'organization_name', Status: 'status', Budget: 'custom_fields.Budget' }, skip_invalid: true });
    expect(answer.body.data.imported).toBe(2);
    expect(answer.body.data.rejected.map((r: any) => [r.row, r.errors.map((e: any) => e.field)])).toEqual([[3, ['last_name']]]);
    const [lara, org] = await Promise.all(answer.body.data.ids.map((id: number) => get(`/v2/leads/${id}`).then((a) => a.body.data)));
    expect(lara).toMatchObject({ first_name: 'Lara', last_name: 'Lead', organization_name: 'Lead Co', status: 'New', custom_fields: { Budget: 2500 } });
    expect(org).toMatchObject({ first_name: null, last_name: null, organization_name: 'Only Org Inc', status: 'Working' });
  });
});

describe('a CSV export imported back', () => {
  it('maps every column by itself and gives the same fields (formula guards undone)', async () => {
    const made = await Promise.all([
      { is_organization: true, name: 'Loop Org', customer_status: 'current', billing_address: { city: 'Bath', country: 'UK' }, custom_fields: { Segment: 'SMB' } },
      { first_name: 'Lou', last_name: 'Loop', email: 'lou@loop.example', phone: '+1 555 0100', description: '=1+1', tags: ['x', 'y'], prospect_status: 'current', custom_fields: { Interests: ['Boats', 'Cars'] }, address: { city: 'Leeds' } },
    ].map((data) => call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data }).then((a) => a.body.data)));
    const csv = (await get(`/v2/contacts/export.csv?ids=${made.map((c) => c.id).join(',')}`)).text;
    const suggested = (await preview({ resource_type: 'contact', csv })).body.data;
    expect(suggested.errors).toEqual([]);
    expect(suggested.mapping).toMatchObject({ id: null, name: 'full_name', is_organization: 'is_organization', 'billing_address.city': 'billing_address.city', tags: 'tags', 'custom_fields.Interests': 'custom_fields.Interests' });
    const answer = await importFile({ resource_type: 'contact', csv, mapping: suggested.mapping });
    expect(answer.status, answer.text).toBe(200);
    const copies = await Promise.all(answer.body.data.ids.map((id: number) => get(`/v2/contacts/${id}`).then((a) => a.body.data)));
    const comparable = ({ id: _i, created_at: _c, updated_at: _u, contact_id: _o, tags, ...rest }: any) => ({ ...rest, tags: [...tags].sort() });
    expect(copies.map(comparable)).toEqual(made.map(comparable));
  });
});

describe('reading CSV', () => {
  const imported = async (csv: string, mapping: Record<string, string | null>) => {
    const answer = await importFile({ resource_type: 'contact', csv, mapping });
    expect(answer.status, answer.text).toBe(200);
    return Promise.all(answer.body.data.ids.map((id: number) => get(`/v2/contacts/${id}`).then((a) => a.body.data)));
  };

  it('reads quoted fields with commas, quotes and line breaks, a BOM and CRLF line ends', async () => {
    const csv = '\uFEFFLast name,Description,Email\r\n"Quote, Esq.","Line one\r\nline two, with ""quotes""",q@x.io\r\nPlain,,p@x.io\r\n';
    const [quoted, plain] = await imported(csv, { 'Last name': 'last_name', Description: 'description', Email: 'email' });
    expect(quoted).toMatchObject({ last_name: 'Quote, Esq.', description: 'Line one\r\nline two, with "quotes"', email: 'q@x.io' });
    expect(plain).toMatchObject({ last_name: 'Plain', description: null });
  });

  it('detects ; and tab separators from the header line', async () => {
    const [semi] = await imported(lines('Last name;City', '"Semi; Colon";Köln'), { 'Last name': 'last_name', City: 'address.city' });
    expect(semi).toMatchObject({ last_name: 'Semi; Colon', address: { city: 'Köln' } });
    const [tab] = await imported(lines('Last name\tCity', 'Tab, Person\tOslo'), { 'Last name': 'last_name', City: 'address.city' });
    expect(tab).toMatchObject({ last_name: 'Tab, Person', address: { city: 'Oslo' } });
  });

  it('skips blank rows but keeps row numbers as in the spreadsheet, and names blank and repeated headers', async () => {
    const answer = await preview({ resource_type: 'contact', csv: lines('Last name,Phone,,Phone', 'A,1,,2', ',,,', 'B,3,,4', ''), mapping: { 'Last name': 'last_name', Phone: 'phone', 'Phone (2)': 'mobile' } });
    expect(answer.body.data.headers).toEqual(['Last name', 'Phone', 'Column 3', 'Phone (2)']);
    expect(answer.body.data.rows).toBe(2);
    expect(answer.body.data.sample.map((s: any) => s.row)).toEqual([1, 3]);
    expect(answer.body.data.sample[1].values).toEqual({ last_name: 'B', phone: '3', mobile: '4' });
  });

  it('refuses a row with more values than the header has columns', async () => {
    const answer = await preview({ resource_type: 'contact', csv: lines('Last name,City', 'Ok,Rome', 'Too,Many,Values') });
    expect(answer.body.data.errors).toEqual([{ row: 2, field: null, source: null, code: 'incorrect_value', message: expect.stringContaining('3 values but the header names 2 columns') }]);
    const refused = await importFile({ resource_type: 'contact', csv: lines('Last name,City', 'Ok,Rome', 'Too,Many,Values'), mapping: { 'Last name': 'last_name' } });
    expect(fields(refused)).toEqual(['/rows/2']);
  });

  it('answers a file that is not CSV with 422 naming the line', async () => {
    const answer = await preview({ resource_type: 'contact', csv: lines('Last name,City', 'Ok,Rome', '"Open,quote', 'More,rows') });
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0].error).toMatchObject({ field: '/csv', code: 'incorrect_value' });
    expect(answer.body.errors[0].error.message).toMatch(/not valid CSV: .*line 4/);
    const binary = await preview({ resource_type: 'contact', csv: 'PK\u0003\u0004\u0000\u0000garbage' });
    expect(binary.body.errors[0].error.message).toMatch(/binary/);
  });

  it('refuses empty files, files without rows, and files over the limits', async () => {
    const error = async (csv: unknown) => (await preview({ resource_type: 'contact', csv })).body.errors[0].error;
    expect(await error('')).toMatchObject({ code: 'blank', field: '/csv' });
    expect(await error('\uFEFF\r\n')).toMatchObject({ code: 'blank', field: '/csv' });
    expect(await error(lines('Last name', '', ','))).toMatchObject({ code: 'blank', message: 'The CSV file has a header but no data rows.' });
    expect(await error(42)).toMatchObject({ code: 'invalid_type', field: '/csv' });
    const tooManyRows = ['Last name', ...Array.from({ length: 20_001 }, (_, i) => `P${i}`)].join('\n');
    expect(await error(tooManyRows)).toMatchObject({ code: 'incorrect_value', message: expect.stringContaining('20001 rows; at most 20000') });
    const tooLarge = `Last name,Description\nBig,${'x'.repeat(5 * 1024 * 1024)}\n`;
    expect(await error(tooLarge)).toMatchObject({ code: 'incorrect_value', message: expect.stringContaining('larger than 5 MB') });
    const huge = await call(hub, 'POST', '/v2/imports/preview', { token: hub.agentToken, raw: JSON.stringify({ data: { resource_type: 'contact', csv: 'x'.repeat(11 * 1024 * 1024) } }) });
    expect(huge.status).toBe(413);
    expect(huge.body.errors[0].error.message).toContain('at most 5 MB');
  });
});

describe('the request', () => {
  const csv = lines('Last name,City', 'Doe,Rome');

  it('checks the resource type, the mapping and unknown attributes', async () => {
    expect(fields(await preview({ csv }))).toEqual(['/resource_type']);
    expect(codes(await preview({ resource_type: 'deal', csv }))).toEqual(['incorrect_value']);
    expect(fields(await preview({ resource_type: 'contact', csv, colour: 'red' }))).toEqual(['/colour']);
    expect(fields(await importFile({ resource_type: 'contact', csv }))).toEqual(['/mapping']);
    expect(fields(await importFile({ resource_type: 'contact', csv, mapping: {}, skip_invalid: 'yes' }))).toEqual(['/skip_invalid']);
    const badMapping = await importFile({ resource_type: 'contact', csv, mapping: { 'Last name': 'surname', City: 'last_name', Nope: 'email' } });
    expect(badMapping.body.errors.map((e: any) => [e.error.field, e.error.code])).toEqual([
      ['/mapping/Last name', 'incorrect_value'], ['/mapping/Nope', 'unknown'],
    ]);
    const twice = await importFile({ resource_type: 'contact', csv, mapping: { 'Last name': 'last_name', City: 'last_name' } });
    expect(twice.body.errors.map((e: any) => [e.error.field, e.error.message])).toEqual([['/mapping/City', expect.stringContaining('already the field of column Last name')]]);
    expect(codes(await importFile({ resource_type: 'contact', csv, mapping: [] }))).toEqual(['invalid_type']);
  });

  it('needs the write scope and a token', async () => {
    expect((await call(hub, 'POST', '/v2/imports', { data: { resource_type: 'contact', csv } })).status).toBe(401);
    const readOnly = hub.tokenFor(hub.agentId, ['read']);
    expect(codes(await importFile({ resource_type: 'contact', csv, mapping: { 'Last name': 'last_name' } }, readOnly))).toEqual(['insufficient_scope']);
  });
});

describe('on a desktop replica', () => {
  it('imports locally, queues each record (and a new organization) for the hub, and previews without queueing', async () => {
    const device = await startTestReplica(hub, hub.agentId);
    const { engine, replica, local, token } = device;
    try {
      await replica.sync();
      const csv = lines('First,Last,Company', 'Rita,Replica,Offline Org');
      const mapping = { First: 'first_name', Last: 'last_name', Company: 'organization_name' };
      expect((await call(local, 'POST', '/v2/imports/preview', { token, data: { resource_type: 'contact', csv, mapping } })).status).toBe(200);
      expect(engine.ctx.replica!.outbox.pending()).toHaveLength(0);
      const answer = await call(local, 'POST', '/v2/imports', { token, data: { resource_type: 'contact', csv, mapping } });
      expect(answer.status).toBe(200);
      expect(answer.body.data.ids[0]).toBeLessThan(0);
      expect(engine.ctx.replica!.outbox.pending().map((e) => [e.method, e.collection])).toEqual([['POST', '/v2/contacts'], ['POST', '/v2/contacts']]);
      await replica.sync();
      const onHub = (await get('/v2/contacts?last_name=Replica')).body.items.map((i: any) => i.data);
      expect(onHub).toHaveLength(1);
      const org = (await get(`/v2/contacts/${onHub[0].contact_id}`)).body.data;
      expect(org).toMatchObject({ is_organization: true, name: 'Offline Org' });
    } finally {
      await device.close();
    }
  });
});
