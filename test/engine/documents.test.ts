import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine, type Engine } from '../../electron/engine/engine.js';
import { CONTACT_JSON } from '../../electron/engine/resources/contacts.js';
import { seedContacts } from '../../electron/engine/seed/demoContacts.js';
import { seedActivities } from '../../electron/engine/seed/demoActivities.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

async function engineWithAdmin(dir = mkdtempSync(join(tmpdir(), 'outpost-docs-'))) {
  dirs.push(dir);
  const engine = openEngine({ dataDir: dir });
  if (engine.users.count() === 0) await engine.users.create({ email: 'a@example.com', name: 'A', role: 'admin', password: 'long-enough' });
  return { engine, dir, actor: { userId: 1, role: 'admin' as const, scopes: new Set(['read', 'write'] as const) } };
}

/** Every stored document must equal the JSON built fresh from the record. */
function staleDocuments(engine: Engine): number[] {
  return engine.db
    .prepare(`SELECT c.id FROM contacts c LEFT JOIN contact_docs d ON d.id = c.id WHERE d.doc IS NOT ${CONTACT_JSON}
              UNION ALL SELECT id FROM contact_docs WHERE id NOT IN (SELECT id FROM contacts)`)
    .pluck().all() as number[];
}

describe('materialised contact documents', () => {
  it('stay equal to the record through creates, updates, tags, custom fields and deletes', async () => {
    const { engine, actor } = await engineWithAdmin();
    seedContacts(engine, 300);
    const org = engine.contacts.create({ is_organization: true, name: 'Doc Org', tags: ['x'] }, actor);
    const person = engine.contacts.create({ last_name: 'Doc', contact_id: org, tags: ['x', 'y'], custom_fields: { Segment: 'SMB' } }, actor);
    engine.contacts.update(person, { first_name: 'Jo', tags: ['z'], customer_status: 'current', billing_address: { city: 'Oslo' } }, actor);
    const segment = engine.customFields.definitions('contact').get('Segment')!;
    engine.customFields.update('contact', segment.id, { name: 'Tier' }, 'contacts');
    engine.db.prepare("UPDATE tags SET name = 'renamed' WHERE name = 'x'").run();
    engine.db.prepare("DELETE FROM tags WHERE name = 'vip'").run();
    engine.contacts.delete(org, actor);
    expect(staleDocuments(engine)).toEqual([]);
    expect(JSON.parse(engine.contacts.json(person))).toMatchObject({ first_name: 'Jo', tags: ['z'], contact_id: null, custom_fields: { Tier: 'SMB' } });
    engine.close();
  });

  it('are rebuilt when the stored shape version differs from the code', async () => {
    const { engine, dir, actor } = await engineWithAdmin();
    const id = engine.contacts.create({ last_name: 'Versioned' }, actor);
    engine.db.prepare("UPDATE contact_docs SET doc = '{}' WHERE id = ?").run(id);
    engine.db.prepare("UPDATE document_versions SET version = 'old'").run();
    engine.close();
    const reopened = openEngine({ dataDir: dir });
    expect(JSON.parse(reopened.contacts.json(id)).last_name).toBe('Versioned');
    expect(staleDocuments(reopened)).toEqual([]);
    reopened.close();
  });
  it('are not kept on a replica: its contacts are built from their rows, as the hub stores them', async () => {
    const { engine, dir, actor } = await engineWithAdmin();
    seedContacts(engine, 3);
    const person = engine.contacts.create({ last_name: 'Kept', tags: ['x'], custom_fields: { Segment: 'SMB' }, address: { city: 'Oslo' } }, actor);
    const hubJson = engine.contacts.json(person);
    engine.close();
    // The same file opened as a replica (an older replica kept documents): they go, with their triggers.
    const replica = openEngine({ dataDir: dir, replica: true });
    const documents = () => replica.db.prepare('SELECT COUNT(*) FROM contact_docs').pluck().get();
    const triggers = () => replica.db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'doc\\_%' ESCAPE '\\'").pluck().get();
    expect([documents(), triggers()]).toEqual([0, 0]);
    expect(replica.contacts.json(person)).toBe(hubJson);
    replica.contacts.update(person, { first_name: 'Jo', tags: ['y'] }, actor);
    expect(JSON.parse(replica.contacts.json(person))).toMatchObject({ first_name: 'Jo', last_name: 'Kept', tags: ['y'] });
    expect(documents()).toBe(0);
    replica.close();
    // Opened as a hub again, every document is built afresh.
    const hub = openEngine({ dataDir: dir });
    expect(JSON.parse(hub.contacts.json(person))).toMatchObject({ first_name: 'Jo', tags: ['y'] });
    expect(staleDocuments(hub)).toEqual([]);
    hub.close();
  });
});

describe('demo data', () => {
  it('never gives a seeded record the id of a deleted one (a device may still hold it)', async () => {
    const { engine, actor } = await engineWithAdmin();
    const contact = engine.contacts.create({ last_name: 'Gone' }, actor);
    const task = engine.tasks.create({ content: 'Gone too' }, actor);
    engine.contacts.delete(contact, actor);
    engine.tasks.delete(task, actor);
    seedContacts(engine, 20);
    seedActivities(engine, { tasks: 5, notes: 5, textMessages: 0 });
    expect(engine.db.prepare('SELECT MIN(id) FROM contacts').pluck().get()).toBeGreaterThan(contact);
    expect(engine.db.prepare('SELECT MIN(id) FROM tasks').pluck().get()).toBeGreaterThan(task);
    // Every seeded record, tags included, is in the change log, so devices receive it.
    const unlogged = engine.db.prepare(`SELECT COUNT(*) FROM tags t WHERE NOT EXISTS
      (SELECT 1 FROM record_revisions r WHERE r.resource_type = 'tag' AND r.resource_id = t.id)`).pluck().get();
    expect(unlogged).toBe(0);
    engine.close();
  });
});
