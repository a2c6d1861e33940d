import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { call, codes, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
const admin = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.adminToken, data });

beforeAll(async () => {
  hub = await startTestHub();
  await admin('POST', '/v2/contact/custom_fields', { name: 'Seats', type: 'number' });
  await admin('POST', '/v2/contacts', {
    first_name: 'Ada', last_name: 'Lovelace', customer_status: 'current', address: { city: 'London' }, billing_address: { city: 'Bath' }, custom_fields: { Seats: 3 },
  });
});
afterAll(() => hub.close());

describe('CSV export with labels for people (headers=labels)', () => {
  it('names the columns as people call them, keeping the field names as the default', async () => {
    const plain = await admin('GET', '/v2/contacts/export.csv');
    expect(plain.text.replace(/^\uFEFF/, '')).toMatch(/^id,creator_id,owner_id,/);

    const labelled = await admin('GET', '/v2/contacts/export.csv?headers=labels');
    expect(labelled.status).toBe(200);
    const [columns, row] = parse(labelled.text, { bom: true }) as string[][];
    expect(columns.slice(0, 3)).toEqual(['ID', 'Creator ID', 'Owner ID']);
    expect(columns).toEqual(expect.arrayContaining(['First name', 'Last name', 'Customer status', 'Street', 'City', 'Billing city', 'Shipping postal code', 'LinkedIn', 'Tags', 'Seats']));
    expect(columns.some((c) => /[_.]/.test(c))).toBe(false);
    expect(row[columns.indexOf('Billing city')]).toBe('Bath');
    expect(row[columns.indexOf('Seats')]).toBe('3');
  });

  it('imports back with its columns recognised', async () => {
    const labelled = await admin('GET', '/v2/contacts/export.csv?headers=labels');
    const preview = await admin('POST', '/v2/imports/preview', { resource_type: 'contact', csv: labelled.text.replace(/^\uFEFF/, '') });
    expect(preview.status).toBe(200);
    expect(preview.body.data.mapping).toMatchObject({
      'First name': 'first_name', 'Last name': 'last_name', City: 'address.city', 'Billing city': 'billing_address.city', Seats: 'custom_fields.Seats',
    });
  });

  it('refuses another naming', async () => {
    const bad = await admin('GET', '/v2/leads/export.csv?headers=names');
    expect(bad.status).toBe(400);
    expect(codes(bad)).toEqual(['invalid_param']);
  });
});
