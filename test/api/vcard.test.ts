import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
let other: TestHub;
const post = (target: TestHub, path: string, data: unknown) => call(target, 'POST', path, { token: target.adminToken, data });
const get = (target: TestHub, path: string) => call(target, 'GET', path, { token: target.adminToken });
const importCards = (vcard: string, extra: Record<string, unknown> = {}, target = hub) => post(target, '/v2/contacts/import_vcard', { vcard, ...extra });
const contact = async (id: number, target = hub) => (await get(target, `/v2/contacts/${id}`)).body.data;
const count = (target: TestHub) => target.engine.db.prepare('SELECT COUNT(*) FROM contacts').pluck().get() as number;
const card = (...lines: string[]) => ['BEGIN:VCARD', ...lines, 'END:VCARD', ''].join('\r\n');

async function defineCustomFields(target: TestHub): Promise<void> {
  await post(target, '/v2/contact/custom_fields', { name: 'Segment', type: 'list', choices: ['SMB', 'Enterprise'] });
  await post(target, '/v2/contact/custom_fields', { name: 'Interests', type: 'multi_select_list', choices: ['Boats', 'Cars', 'Planes'] });
  await post(target, '/v2/contact/custom_fields', { name: 'Seats', type: 'number' });
}

beforeAll(async () => {
  [hub, other] = await Promise.all([startTestHub(), startTestHub()]);
  await Promise.all([defineCustomFields(hub), defineCustomFields(other)]);
});
afterAll(async () => {
  await Promise.all([hub.close(), other.close()]);
});

/** The fields a vCard carries, comparable across hubs (the organization by its name). */
async function comparable(target: TestHub, record: any): Promise<Record<string, unknown>> {
  const { id: _id, creator_id: _c, owner_id: _o, created_at: _ca, updated_at: _ua, contact_id: contactId, parent_organization_id: _p, tags, ...rest } = record;
  const organization = contactId === null ? null : (await contact(contactId, target)).name;
  return { ...rest, tags: [...tags].sort(), organization };
}

describe('vCard export and import', () => {
  it('round-trips every contact field: export from one hub, import into another', async () => {
    const org = (await post(hub, '/v2/contacts', {
      is_organization: true, name: 'Round, Trip; Org', website: 'https://round.example/a,b', industry: 'Shipping', description: 'Line one\nLine two; with, punctuation',
      email: 'hello@round.example', phone: '+44 20 7946 0000', fax: '+44 20 7946 0001', customer_status: 'current',
      address: { line1: '1 Quay St', city: 'Bristol', postal_code: 'BS1 4DJ', state: 'Avon', country: 'UK' },
      billing_address: { line1: 'PO Box 9', city: 'Bath', postal_code: null, state: null, country: 'UK' },
      shipping_address: { line1: 'Dock 3', city: 'Bristol', postal_code: null, state: null, country: null },
      tags: ['key account', 'a,b'], custom_fields: { Segment: 'Enterprise', Seats: 250, Interests: ['Boats', 'Planes'] },
    })).body.data;
    const person = (await post(hub, '/v2/contacts', {
      first_name: 'Zoë', last_name: "O'Brien-Ünal", contact_id: org.id, title: 'Head of "Ops"', email: 'zoe@round.example',
      phone: '+44 1', mobile: '+44 7700 900123', fax: '+44 2', twitter: '@zoe', facebook: 'zoe.fb', linkedin: 'https://linkedin.com/in/zoe', skype: 'zoe.skype',
      prospect_status: 'lost', industry: 'Logistics', description: 'Prefers email 📧', tags: ['vip'], custom_fields: { Segment: 'SMB' },
      address: { line1: null, city: 'Cardiff', postal_code: null, state: null, country: 'Wales' },
    })).body.data;
    const plain = (await post(hub, '/v2/contacts', { last_name: 'Plain' })).body.data;

    const exported = await get(hub, `/v2/contacts/export.vcf?ids=${plain.id},${person.id},${org.id}`);
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toBe('text/vcard; charset=utf-8');
    expect(exported.headers.get('content-disposition')).toBe('attachment; filename="contacts.vcf"');
    expect(exported.text.match(/BEGIN:VCARD\r\nVERSION:4\.0\r\n/g)).toHaveLength(3);
    // Organizations come first, so the people of the file link to them.
    expect(exported.text.indexOf('KIND:org')).toBeLessThan(exported.text.indexOf('\r\nN:'));

    const imported = await importCards(exported.text, {}, other);
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.data).toMatchObject({ resource_type: 'contact', imported: 3, rejected: [], created_organization_ids: [] });
    const copies = await Promise.all(imported.body.data.ids.map((id: number) => contact(id, other)));
    const originals = [org, person, plain];
    for (const [i, original] of originals.entries()) {
      expect(await comparable(other, copies[i])).toEqual(await comparable(hub, await contact(original.id)));
    }
    expect(copies[1].contact_id).toBe(copies[0].id);
  });

  it('exports every contact without ids, with names escaped as vCard requires', async () => {
    const exported = await call(hub, 'GET', '/v2/contacts/export.vcf', { token: hub.agentToken });
    const cards = [ICAL.parse(exported.text)].flat(1);
    expect(cards).toHaveLength(count(hub));
    expect(exported.text).toContain('ORG:Round\\, Trip\\; Org');
    expect(codes(await get(hub, '/v2/contacts/export.vcf?colour=red'))).toEqual(['invalid_param']);
    expect((await call(hub, 'GET', '/v2/contacts/export.vcf')).status).toBe(401);
  });

  it('reads vCard 3.0 cards as Apple Contacts and Google write them', async () => {
    const text = card(
      'VERSION:3.0', 'PRODID:-//Apple Inc.//macOS 14.0//EN', 'N:Appleseed;Johnny;;Mr.;', 'FN:Johnny Appleseed', 'ORG:Apple Inc.;Engineering', 'TITLE:Engineer',
      'EMAIL;type=INTERNET;type=HOME:home@example.com', 'EMAIL;type=INTERNET;type=WORK;type=pref:work@example.com',
      'TEL;type=WORK;type=VOICE:+1 555 0199', 'TEL;type=CELL;type=VOICE;type=pref:+1 555 0100', 'TEL;type=WORK;type=FAX:+1 555 0198',
      'item1.ADR;type=WORK;type=pref:;;1 Infinite Loop;Cupertino;CA;95014;USA', 'item1.X-ABADR:us', 'URL;type=WORK:https://apple.com',
      'NOTE:Met at WWDC\\, 2024\\nFollow up', 'CATEGORIES:vip,friends', 'X-SOCIALPROFILE;type=twitter:https://twitter.com/johnny', 'X-SKYPE:johnny.s',
    );
    const answer = await importCards(text);
    expect(answer.status, answer.text).toBe(200);
    const johnny = await contact(answer.body.data.ids[0]);
    expect(johnny).toMatchObject({
      is_organization: false, first_name: 'Johnny', last_name: 'Appleseed', title: 'Engineer', email: 'work@example.com',
      phone: '+1 555 0199', mobile: '+1 555 0100', fax: '+1 555 0198', website: 'https://apple.com', description: 'Met at WWDC, 2024\nFollow up',
      twitter: 'https://twitter.com/johnny', skype: 'johnny.s',
      address: { line1: '1 Infinite Loop', city: 'Cupertino', state: 'CA', postal_code: '95014', country: 'USA' },
    });
    expect([...johnny.tags].sort()).toEqual(['friends', 'vip']);
    const apple = await contact(johnny.contact_id);
    expect(apple).toMatchObject({ is_organization: true, name: 'Apple Inc.' });
    expect(answer.body.data.created_organization_ids).toEqual([apple.id]);
  });

  it('makes organizations of organization cards: KIND:org, X-ABShowAs:COMPANY, or only an ORG', async () => {
    const text = [
      card('VERSION:4.0', 'KIND:org', 'FN:Kind Org'),
      card('VERSION:3.0', 'N:;;;;', 'FN:Show As Co', 'ORG:Show As Co;', 'X-ABShowAs:COMPANY'),
      card('VERSION:4.0', 'FN:Only Org Ltd', 'ORG:Only Org Ltd'),
      card('VERSION:3.0', 'ORG:No Fn Inc'),
      card('VERSION:4.0', 'FN:Pat Person', 'ORG:Only Org Ltd'),
    ].join('');
    const answer = await importCards(text);
    expect(answer.status, answer.text).toBe(200);
    const [kind, showAs, onlyOrg, noFn, pat] = await Promise.all(answer.body.data.ids.map((id: number) => contact(id)));
    expect([kind, showAs, onlyOrg, noFn].map((c) => [c.is_organization, c.name])).toEqual([[true, 'Kind Org'], [true, 'Show As Co'], [true, 'Only Org Ltd'], [true, 'No Fn Inc']]);
    expect(pat).toMatchObject({ is_organization: false, first_name: 'Pat', last_name: 'Person', contact_id: onlyOrg.id });
    expect(answer.body.data.created_organization_ids).toEqual([]);
  });

  it('refuses a file with a bad card as a whole, or skips it with skip_invalid', async () => {
    const text = [card('VERSION:4.0', 'FN:Good One', 'N:One;Good;;;'), card('VERSION:4.0', 'EMAIL:nobody@example.com'), card('VERSION:4.0', 'N:Two;Good;;;', 'X-OUTPOST-CUSTOMER-STATUS:maybe')].join('');
    const before = count(hub);
    const refused = await importCards(text);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: any) => [e.error.field, e.error.code])).toEqual([['/rows/2/last_name', 'missing'], ['/rows/3/customer_status', 'incorrect_value']]);
    expect(refused.body.errors[0].error.message).toBe('Row 2: last_name is required for an individual.');
    expect(count(hub)).toBe(before);
    const skipped = await importCards(text, { skip_invalid: true });
    expect(skipped.body.data.imported).toBe(1);
    expect(skipped.body.data.rejected.map((r: any) => [r.row, r.errors.map((e: any) => [e.field, e.source])])).toEqual([
      [2, [['last_name', null]]], [3, [['customer_status', 'X-OUTPOST-CUSTOMER-STATUS']]],
    ]);
    expect(count(hub)).toBe(before + 1);
  });

  it('previews what each card becomes and every error, writing nothing', async () => {
    const before = count(hub);
    const text = [card('VERSION:4.0', 'FN:Preview Person', 'ORG:Preview Org', 'EMAIL:p@x.io', 'ADR:;;;Rome;;;IT', 'CATEGORIES:a,b'), card('VERSION:4.0', 'NOTE:no name')].join('');
    const answer = await post(hub, '/v2/contacts/import_vcard/preview', { vcard: text });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      resource_type: 'contact', rows: 2,
      sample: [
        { row: 1, values: { first_name: 'Preview', last_name: 'Person', email: 'p@x.io', 'address.city': 'Rome', 'address.country': 'IT', tags: 'a; b', organization_name: 'Preview Org' } },
        { row: 2, values: { description: 'no name' } },
      ],
      errors: [{ row: 2, field: 'last_name', source: null, code: 'missing', message: 'last_name is required for an individual.' }],
    });
    expect(count(hub)).toBe(before);
  });

  it('answers a file that is not vCard with a clear 422', async () => {
    const problem = async (vcard: unknown) => (await importCards(vcard as string)).body.errors[0].error;
    expect(await problem('BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Broken\r\nthis line is nonsense\r\nEND:VCARD\r\n')).toMatchObject({
      code: 'incorrect_value', field: '/vcard', message: expect.stringContaining('line 4: this line is nonsense'),
    });
    expect((await problem('BEGIN:VCARD\r\nFN:Never ends\r\n')).message).toContain('not a valid vCard');
    expect((await problem('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n')).message).toContain('holds a VCALENDAR, not vCards');
    expect((await problem('BEGIN:VCARD\r\nVERSION:2.1\r\nN:Doe;John\r\nTEL;CELL:+1\r\nEND:VCARD\r\n')).message).toContain('vCard 2.1 is not supported');
    expect(await problem('   ')).toMatchObject({ code: 'blank', field: '/vcard' });
    expect(await problem(undefined)).toMatchObject({ code: 'missing', field: '/vcard' });
    expect(fields(await importCards(card('VERSION:4.0', 'FN:X'), { skip_invalid: 1 }))).toEqual(['/skip_invalid']);
  });
});
