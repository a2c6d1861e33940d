import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

/**
 * What the real service's four official clients send, against a hub: every
 * fixture of their test suites, which run against a live server, as the client
 * sends it. Sources: basecrm-python `basecrm/test/testutils.py`, basecrm-ruby
 * `spec/factories/*.rb`, basecrm-php `tests/TestCase.php`, basecrm-java
 * `src/test/groovy/com/getbase/services/BaseSpecification.groovy`.
 *
 * The Python, Ruby and PHP clients send only their service's writable keys
 * (`OPTS_KEYS_TO_PERSIST`, `$keysToPersist`: KEYS below), and the deal's `value`
 * as a string; the Java client sends its map as it is. Each record must be
 * created (200, the envelope the clients read), then accepted back by PUT as
 * the clients' update tests send it: the created record, filtered the same way
 * (Java: whole). The suites run with the account owner's token: an admin here.
 */

let hub: TestHub;
beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(() => hub.close());

type Body = Record<string, unknown>;
type Client = 'python' | 'ruby' | 'php' | 'java';

/** The keys the Python, Ruby and PHP clients send per resource (the Java client filters nothing). */
const KEYS: Record<string, readonly string[]> = {
  contact: ['address', 'contact_id', 'custom_fields', 'customer_status', 'description', 'email', 'facebook', 'fax', 'first_name', 'industry', 'is_organization',
    'last_name', 'linkedin', 'mobile', 'name', 'owner_id', 'phone', 'prospect_status', 'skype', 'tags', 'title', 'twitter', 'website'],
  // Ruby's list also has last_stage_change_at, Python's estimated_close_date and customized_win_likelihood.
  deal: ['contact_id', 'currency', 'custom_fields', 'hot', 'loss_reason_id', 'name', 'owner_id', 'source_id', 'stage_id', 'tags', 'value',
    'estimated_close_date', 'customized_win_likelihood', 'last_stage_change_at'],
  lead: ['address', 'custom_fields', 'description', 'email', 'facebook', 'fax', 'first_name', 'industry', 'last_name', 'linkedin', 'mobile',
    'organization_name', 'owner_id', 'phone', 'skype', 'source_id', 'status', 'tags', 'title', 'twitter', 'website'],
  task: ['completed', 'content', 'due_date', 'owner_id', 'remind_at', 'resource_id', 'resource_type'],
  note: ['content', 'resource_id', 'resource_type'],
  source: ['name', 'resource_type'],
  loss_reason: ['name'],
  deal_unqualified_reason: ['name'],
  tag: ['name', 'resource_type'],
  product: ['name', 'description', 'sku', 'active', 'cost', 'cost_currency', 'prices', 'max_discount', 'max_markup'],
  order: ['deal_id', 'discount'],
  line_item: ['product_id', 'value', 'variation', 'currency', 'quantity'],
  associated_contact: ['contact_id', 'role'],
  call: ['user_id', 'summary', 'recording_url', 'outcome_id', 'duration', 'phone_number', 'incoming', 'missed', 'external_id', 'resource_id',
    'resource_type', 'associated_deal_ids', 'made_at'],
};

/** The body as `client` sends it. */
function sent(client: Client, type: string, fixture: Body): Body {
  if (client === 'java') return fixture;
  const keys = KEYS[type];
  const body = Object.fromEntries(Object.entries(fixture).filter(([key]) => keys.includes(key)));
  if (type === 'deal' && body.value !== undefined && body.value !== null) body.value = String(body.value);
  return body;
}

/** POSTs a fixture as the client sends it; the created record, after checking the envelope the clients read. */
async function create(client: Client, type: string, path: string, fixture: Body): Promise<Body> {
  const answer = await call(hub, 'POST', path, { token: hub.adminToken, data: sent(client, type, fixture) });
  expect(answer.status, `${client} ${type}: ${answer.text}`).toBe(200);
  expect(answer.body.meta.type, `${client} ${type}`).toBe(type);
  // An associated contact has no id of its own: it is known by its contact's.
  expect(answer.body.data[type === 'associated_contact' ? 'contact_id' : 'id'], `${client} ${type}`).toEqual(expect.any(Number));
  return answer.body.data;
}

/** PUTs the record back as the client's update test does. */
async function putBack(client: Client, type: string, path: string, record: Body): Promise<void> {
  const answer = await call(hub, 'PUT', path, { token: hub.adminToken, data: sent(client, type, record) });
  expect(answer.status, `${client} ${type} PUT back: ${answer.text}`).toBe(200);
}

/** A record created and put back. */
async function roundTrip(client: Client, type: string, path: string, fixture: Body): Promise<Body> {
  const record = await create(client, type, path, fixture);
  await putBack(client, type, `${path}/${record.id as number}`, record);
  return record;
}

const stamp = () => `${Date.now()}${Math.floor(Math.random() * 100000)}`;

/** The individual every client creates: with a `name` beside `first_name` and `last_name`. */
const contactFixture = (website: string, email = `mark${stamp()}@example.com`): Body => ({
  description: 'I know him via Tom', email, facebook: 'mjohnson', fax: '+44-208-1234567', first_name: `Mark${stamp()}`,
  industry: 'Design Services', is_organization: false, last_name: `Johnson${stamp()}`, linkedin: 'mjohnson', mobile: '508-778-6516',
  name: `Design Services Company${stamp()}`, phone: '508-778-6516', skype: 'mjohnson', tags: ['important'], title: 'CEO', twitter: 'mjohnson', website,
});

/** The lead every client creates, with the account's status `Unqualified`. */
const leadFixture = (website: string): Body => ({
  description: 'I know him via Tom', email: `edd${stamp()}@example.com`, facebook: 'mjohnson', fax: '+44-208-1234567', first_name: `Mark${stamp()}`,
  industry: 'Design Services', last_name: `Johnson${stamp()}`, linkedin: 'mjohnson', mobile: '508-778-6516', phone: '508-778-6516', skype: 'mjohnson',
  status: 'Unqualified', tags: ['important'], title: 'CEO', twitter: 'mjohnson', website,
});

/** The deal of the Python, Ruby and PHP fixtures (their clients leave `dropbox_email` out). */
const dealFixture = (contactId: unknown): Body => ({
  currency: 'EUR', dropbox_email: 'dropbox@4e627bcd.deals.futuresimple.com', hot: true, name: `Website Redesign${stamp()}`, tags: ['important'], value: 1000, contact_id: contactId,
});

/** Every client's task: its reminder comes two days after its due date. */
const taskFixture = (contactId: unknown): Body => ({
  content: 'Contact Tom', due_date: '2014-09-27T16:32:56+00:00', remind_at: '2014-09-29T15:32:56+00:00', resource_id: contactId, resource_type: 'contact',
});

const noteFixture = (contactId: unknown): Body => ({ content: 'Highly important.', resource_id: contactId, resource_type: 'contact' });

/** A contact, and a deal on a contact with an order: what line items and associated contacts need. */
async function dealWithOrder(client: Client, contact: Body, deal: Body, discount: number): Promise<{ deal: Body; order: Body }> {
  const created = await roundTrip(client, 'deal', '/v2/deals', deal);
  expect(typeof created.value, 'the clients coerce value from a string').toBe('string');
  const order = await roundTrip(client, 'order', '/v2/orders', { deal_id: created.id, discount });
  await create(client, 'associated_contact', `/v2/deals/${created.id as number}/associated_contacts`, { role: 'involved', contact_id: contact.id });
  return { deal: created, order };
}

/** The named lists a client's suite creates and updates, each fixture twice (its tests create several). */
async function namedLists(client: Client, lists: [type: string, path: string, fixture: () => Body][]): Promise<void> {
  for (const [type, path, fixture] of lists) {
    for (let twice = 0; twice < 2; twice++) await roundTrip(client, type, path, fixture());
  }
}

describe('the official clients’ fixtures', () => {
  it('basecrm-python', async () => {
    const contact = await roundTrip('python', 'contact', '/v2/contacts', contactFixture('www.designservices.com'));
    expect(contact.name, 'an individual’s name comes from first_name and last_name').toBe(`${contact.first_name as string} ${contact.last_name as string}`);
    await roundTrip('python', 'lead', '/v2/leads', leadFixture('www.designservices.com'));
    const { order } = await dealWithOrder('python', contact, dealFixture(contact.id), 4);
    await roundTrip('python', 'note', '/v2/notes', noteFixture(contact.id));
    await roundTrip('python', 'tag', '/v2/tags', { name: `publisher${stamp()}`, resource_type: 'contact' });
    const product = await roundTrip('python', 'product', '/v2/products', {
      name: `Enterprise Plan${stamp()}`, description: 'Includes more storage options', sku: 'enterprise-plan', active: true, max_discount: 4, max_markup: 4,
      cost: 2, cost_currency: 'USD', prices: [{ amount: '1599.99', currency: 'USD' }, { amount: '3599.99', currency: 'PLN' }],
    });
    await create('python', 'line_item', `/v2/orders/${order.id as number}/line_items`, {
      product_id: product.id, value: 1599.99, variation: 0, currency: 'USD', quantity: 1, price: 1599.99,
    });
    await namedLists('python', [
      ['source', '/v2/deal_sources', () => ({ name: `Word of mouth${stamp()}` })], ['source', '/v2/lead_sources', () => ({ name: `Word of mouth${stamp()}` })],
      ['source', '/v2/sources', () => ({ name: `Word of mouth${stamp()}` })], ['loss_reason', '/v2/loss_reasons', () => ({ name: `We were too expensive${stamp()}` })],
      ['deal_unqualified_reason', '/v2/deal_unqualified_reasons', () => ({ name: `We were too expensive${stamp()}` })],
    ]);
  });

  it('basecrm-ruby', async () => {
    const contact = await roundTrip('ruby', 'contact', '/v2/contacts', contactFixture('www.example.com'));
    await roundTrip('ruby', 'lead', '/v2/leads', leadFixture('www.example.com'));
    const { order } = await dealWithOrder('ruby', contact, dealFixture(contact.id), 4);
    await roundTrip('ruby', 'note', '/v2/notes', noteFixture(contact.id));
    await roundTrip('ruby', 'tag', '/v2/tags', { name: `tag${stamp()}`, resource_type: 'contact' });
    const product = await roundTrip('ruby', 'product', '/v2/products', {
      name: 'Ruby Product', description: 'Includes more storage options', sku: 'enterprise-plan', active: true, max_discount: 4, max_markup: 4,
      cost: 2, cost_currency: 'USD', prices: [{ amount: '1599.99', currency: 'USD' }, { amount: '3599.99', currency: 'PLN' }],
    });
    await create('ruby', 'line_item', `/v2/orders/${order.id as number}/line_items`, {
      product_id: product.id, value: 1599.99, variation: 0, currency: 'USD', quantity: 1, price: 1599.99,
    });
    await roundTrip('ruby', 'call', '/v2/calls', {
      summary: 'Schedule another call.', recording_url: 'https://api.twilio.com/2010-04-01/Accounts/hAkjsahhd719e/Recordings/RKOHurusajda',
      duration: 44, phone_number: '+44-208-1234567', incoming: true, missed: false, external_id: 'a1'.repeat(32), made_at: '2014-09-27T16:32:56+00:00',
    });
    // `loss_reason#{Time.now.to_i}`: the suite creates several in one second, under one name.
    const second = `loss_reason${Math.floor(Date.now() / 1000)}`;
    await namedLists('ruby', [
      ['source', '/v2/deal_sources', () => ({ name: `source${stamp()}` })], ['source', '/v2/lead_sources', () => ({ name: `source${stamp()}` })],
      ['source', '/v2/sources', () => ({ name: `source${stamp()}` })], ['loss_reason', '/v2/loss_reasons', () => ({ name: second })],
      ['deal_unqualified_reason', '/v2/deal_unqualified_reasons', () => ({ name: `unqualified_reason${stamp()}` })],
    ]);
  });

  it('basecrm-php', async () => {
    const contact = await roundTrip('php', 'contact', '/v2/contacts', contactFixture('www.example.com'));
    await roundTrip('php', 'lead', '/v2/leads', leadFixture('www.example.com'));
    const { order } = await dealWithOrder('php', contact, dealFixture(contact.id), 20);
    await roundTrip('php', 'note', '/v2/notes', noteFixture(contact.id));
    await roundTrip('php', 'tag', '/v2/tags', { name: `publisher${stamp()}`, resource_type: 'contact' });
    const product = await roundTrip('php', 'product', '/v2/products', {
      name: `Product${stamp()}`, description: 'product description', sku: 'product-sku', active: true, cost: '99.99', cost_currency: 'USD',
      max_discount: 100, max_markup: 80, prices: [{ amount: '99.99', currency: 'USD' }],
    });
    await create('php', 'line_item', `/v2/orders/${order.id as number}/line_items`, {
      product_id: product.id, currency: 'USD', variation: '-19.99', quantity: 1, value: '80.00',
    });
    await namedLists('php', [
      ['source', '/v2/deal_sources', () => ({ name: `inbound marketing${stamp()}`, resource_type: 'deal' })],
      ['source', '/v2/lead_sources', () => ({ name: `outbound marketing${stamp()}`, resource_type: 'lead' })],
      ['source', '/v2/sources', () => ({ name: `Word of mouth${stamp()}` })], ['loss_reason', '/v2/loss_reasons', () => ({ name: `We were too expensive${stamp()}` })],
      ['deal_unqualified_reason', '/v2/deal_unqualified_reasons', () => ({ name: `Reason of unqualifying deal${stamp()}` })],
    ]);
  });

  it('basecrm-java', async () => {
    // The same email on every contact, the same name on every product.
    const contact = await roundTrip('java', 'contact', '/v2/contacts', contactFixture('www.designservices.com', 'mark@designservices.com'));
    await roundTrip('java', 'contact', '/v2/contacts', contactFixture('www.designservices.com', 'mark@designservices.com'));
    await roundTrip('java', 'lead', '/v2/leads', leadFixture('www.designservices.com'));
    const dates = { last_stage_change_at: '2014-09-27T16:32:56Z', estimated_close_date: '2014-09-27T16:32:56Z' };
    const javaDeal = { currency: 'EUR', hot: true, name: `Website Redesign${stamp()}`, value: 1000.0, tags: ['important'], contact_id: contact.id, ...dates };
    const { deal, order } = await dealWithOrder('java', contact, javaDeal, 5);
    expect(deal.estimated_close_date, 'the day of the date-time sent').toBe('2014-09-27');
    expect((await roundTrip('java', 'deal', '/v2/deals', { ...javaDeal, value: '1000.25' })).value).toBe('1000.25');
    expect((await call(hub, 'PUT', `/v2/deals/${deal.id as number}`, { token: hub.adminToken, data: { ...deal, customized_win_likelihood: 15 } })).body.data.customized_win_likelihood).toBe(15);
    await roundTrip('java', 'note', '/v2/notes', noteFixture(contact.id));
    await roundTrip('java', 'tag', '/v2/tags', { name: `publisher${stamp()}`, resource_type: 'contact' });
    for (let twice = 0; twice < 2; twice++) {
      const product = await roundTrip('java', 'product', '/v2/products', {
        name: 'Enterprise Plan', sku: 'enterprise-plan', description: 'Includes more storage options', active: true,
        prices: [{ amount: '1599.99', currency: 'USD' }, { amount: '3599.99', currency: 'PLN' }], cost: '999.99', cost_currency: 'USD', max_discount: 15, max_markup: 5,
      });
      const first = (product.prices as { amount: string; currency: string }[])[0];
      const item = await create('java', 'line_item', `/v2/orders/${order.id as number}/line_items`, { product_id: product.id, currency: first.currency, variation: '0.00', quantity: 10 });
      expect(item.price, 'the product’s price in that currency').toBe(first.amount);
    }
    await create('java', 'collaboration', '/v2/collaborations', { resource_type: 'contact', resource_id: contact.id, collaborator_id: contact.owner_id });
    await roundTrip('java', 'call', '/v2/calls', { phone_number: '+44-208-1234567' });
    await namedLists('java', [
      ['source', '/v2/sources', () => ({ name: `Word of mouth${stamp()}` })], ['source', '/v2/lead_sources', () => ({ name: `Word of mouth${stamp()}` })],
      ['loss_reason', '/v2/loss_reasons', () => ({ name: `We were too expensive${stamp()}` })],
      ['deal_unqualified_reason', '/v2/deal_unqualified_reasons', () => ({ name: `We were too expensive${stamp()}` })],
    ]);
  });

  it('refuses only the task fixtures’ reminder, set after their due date: the spec makes that invalid (Errors 5)', async () => {
    const contact = await create('python', 'contact', '/v2/contacts', contactFixture('www.example.com'));
    for (const client of ['python', 'ruby', 'php', 'java'] as const) {
      const answer = await call(hub, 'POST', '/v2/tasks', { token: hub.adminToken, data: sent(client, 'task', taskFixture(contact.id)) });
      expect([answer.status, codes(answer), fields(answer)], client).toEqual([422, ['incorrect_value'], ['/remind_at']]);
    }
    const { remind_at: _remindAt, ...withoutReminder } = taskFixture(contact.id);
    await roundTrip('ruby', 'task', '/v2/tasks', withoutReminder);
  });
});
