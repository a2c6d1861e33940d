import { faker } from '@faker-js/faker';
import type { Engine } from '../engine.js';
import { isoSeconds } from '../clock.js';
import { newRecordId, type EngineContext } from '../context.js';
import { loadWithDeferredDocuments } from '../db/documents.js';
import { withIndexesBuiltAfter } from '../db/deferredIndexes.js';
import { indexRowsFrom } from '../db/searchIndexes.js';
import { sqliteOf } from '../db/database.js';
import { CUSTOMER_STATUSES, PROSPECT_STATUSES } from '../../../shared/resources/contact.js';
import { UniqueEmails } from './uniqueEmails.js';
import { runSeed } from './demoSetup.js';

const TAGS = ['vip', 'newsletter', 'trade-show', 'referral', 'partner', 'cold', 'warm', 'key-account'];
const SEGMENTS = ['SMB', 'Mid-market', 'Enterprise'];
const INTERESTS = ['Hardware', 'Software', 'Services', 'Training'];

const COLUMNS = [
  'creator_id', 'owner_id', 'is_organization', 'contact_id', 'name', 'first_name', 'last_name',
  'customer_status', 'prospect_status', 'title', 'industry', 'website', 'email', 'phone', 'mobile',
  'address_line1', 'address_city', 'address_postal_code', 'address_state', 'address_country',
  'billing_address_line1', 'billing_address_city', 'billing_address_postal_code', 'billing_address_state', 'billing_address_country',
  'custom_fields', 'created_at', 'updated_at',
];

/** Demo custom fields, one of each supported type, created if missing. */
function ensureDemoFields(engine: Engine): void {
  const existing = engine.customFields.definitions('contact');
  const wanted = [
    { name: 'Segment', type: 'list', choices: SEGMENTS },
    { name: 'Employees', type: 'number', for_contact: false },
    { name: 'Region', type: 'string' },
    { name: 'Interests', type: 'multi_select_list', choices: INTERESTS },
  ];
  for (const field of wanted) if (!existing.has(field.name)) engine.customFields.create('contact', field);
}

/** One plausible contact as column values; people mostly work for an organization seeded before them. */
function demoContact(isOrg: boolean, orgIds: number[], owners: number[], creator: number, now: string, emails: UniqueEmails): Record<string, unknown> {
  const customer = faker.helpers.arrayElement(CUSTOMER_STATUSES);
  const prospect = customer === 'none' ? faker.helpers.arrayElement(PROSPECT_STATUSES) : faker.helpers.arrayElement(['none', 'current'] as const);
  const hasStatus = customer !== 'none' || prospect !== 'none';
  const first = isOrg ? null : faker.person.firstName();
  const last = isOrg ? null : faker.person.lastName();
  const address = [faker.location.streetAddress(), faker.location.city(), faker.location.zipCode(), faker.location.state({ abbreviated: true }), 'US'];
  const custom: Record<string, unknown> = { Segment: faker.helpers.arrayElement(SEGMENTS), Region: faker.location.country() };
  if (isOrg) custom.Employees = faker.number.int({ min: 2, max: 5000 });
  if (faker.number.int(3) === 0) custom.Interests = faker.helpers.arrayElements(INTERESTS, { min: 1, max: 2 });
  const values = [
    creator, faker.helpers.arrayElement(owners), isOrg ? 1 : 0,
    !isOrg && orgIds.length > 0 && faker.number.int(9) > 1 ? faker.helpers.arrayElement(orgIds) : null,
    isOrg ? faker.company.name() : `${first} ${last}`, first, last, customer, prospect,
    isOrg ? null : faker.person.jobTitle(), isOrg ? faker.commerce.department() : null, isOrg ? faker.internet.url() : null,
    emails.claim(isOrg ? `info@${faker.internet.domainName()}` : faker.internet.email({ firstName: first!, lastName: last! })),
    faker.phone.number({ style: 'national' }), isOrg ? null : faker.phone.number({ style: 'international' }),
    ...address, ...address.map((part) => (hasStatus ? part : null)),
    JSON.stringify(custom), now, now,
  ];
  return Object.fromEntries(COLUMNS.map((c, i) => [c, values[i]]));
}

/**
 * Fills the database with `count` realistic contacts: about one in ten is an
 * organization, most people belong to one. Rows go in through prepared
 * statements in one transaction, with their change-log entries; the search
 * index, the stored documents and (for a batch that at least doubles the
 * table) the secondary indexes are built for the whole batch at the end
 * rather than row by row, which is what makes 100 000 contacts take seconds
 * and a million ten times that.
 * No two contacts or leads share an email address, also over several runs:
 * faker's seed moves on with the contacts already there, and an address
 * taken all the same gets a number (uniqueEmails.ts).
 */
export function seedContacts(engine: Engine, count: number, seed = 42): { organizations: number; people: number } {
  const { db } = engine;
  const creator = db.prepare("SELECT id FROM users WHERE role = 'admin' AND deleted_at IS NULL ORDER BY id LIMIT 1").pluck().get() as number | undefined;
  if (creator === undefined) throw new Error('No admin user yet: create one with `outpost users add` (or start the hub once) before seeding.');
  ensureDemoFields(engine);
  faker.seed(runSeed(engine, 'contacts', seed));
  const emails = new UniqueEmails(db);
  const owners = db.prepare("SELECT id FROM users WHERE status = 'active' AND deleted_at IS NULL").pluck().all() as number[];
  const now = isoSeconds(engine.clock.now());
  const tagIds = ensureTags(engine.ctx, creator, now);
  const insert = db.prepare(`INSERT INTO contacts (id, ${COLUMNS.join(', ')}) VALUES (@id, ${COLUMNS.map((c) => `@${c}`).join(', ')})`);
  const tagging = db.prepare("INSERT OR IGNORE INTO taggings (tag_id, resource_type, resource_id) VALUES (?, 'contact', ?)");

  const orgIds: number[] = [];
  db.transaction(() => {
    // Ids after every id ever used (a deleted contact's id is never given again; devices may hold it).
    const firstNewId = newRecordId(engine.ctx, 'contacts', 'contact');
    const load = () => {
      for (let i = 0; i < count; i++) {
        const isOrg = i % 10 === 0;
        const id = firstNewId + i;
        insert.run({ ...demoContact(isOrg, orgIds, owners, creator, now, emails), id });
        if (isOrg) orgIds.push(id);
        for (const tag of faker.helpers.arrayElements(tagIds, { min: 0, max: 2 })) tagging.run(tag, id);
        engine.ctx.changes.record('contact', id, 'created', creator);
      }
    };
    // PostgreSQL keeps no stored documents and its search table follows by trigger (db/postgres/search.ts).
    if (db.dialect === 'postgres') return load();
    // The trigger as the schema has it now (its migrations made it anew), made again after the load.
    const searchTrigger = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'contacts_fts_insert'").pluck().get() as string;
    db.exec('DROP TRIGGER contacts_fts_insert');
    loadWithDeferredDocuments(db, 'contacts', firstNewId, () => withIndexesBuiltAfter(db, 'contacts', count, load));
    indexRowsFrom(sqliteOf(db), 'contacts_fts', firstNewId);
    db.exec(searchTrigger);
  }).immediate();
  return { organizations: orgIds.length, people: count - orgIds.length };
}

function ensureTags(ctx: EngineContext, creator: number, now: string): number[] {
  const insert = ctx.db.prepare("INSERT INTO tags (id, name, resource_type, creator_id, created_at, updated_at) VALUES (?, ?, 'contact', ?, ?, ?)");
  const find = ctx.db.prepare("SELECT id FROM tags WHERE resource_type = 'contact' AND name = ?").pluck();
  return TAGS.map((name) => {
    const existing = find.get(name) as number | undefined;
    if (existing !== undefined) return existing;
    const id = newRecordId(ctx, 'tags', 'tag');
    insert.run(id, name, creator, now, now);
    ctx.changes.record('tag', id, 'created', creator);
    return id;
  });
}
