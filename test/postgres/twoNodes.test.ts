import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, serve, tempDir, type Served } from '../support/cliProcess.js';
import { startPostgresCluster, whyNoPostgres, type PostgresCluster } from '../support/postgresCluster.js';
import { hubDatabase } from '../support/postgresHubDatabase.js';
import { HUB_WRITE_LOCK } from '../../electron/engine/db/postgres/database.js';

/**
 * Two hub nodes on one PostgreSQL database (docs/design/postgres-hub.md,
 * "The change log watermark"): two real `outpost serve` processes, each with
 * its own data folder, one database. A write through one node is read
 * through the other at once, and the sync protocol stays exact with writers
 * on both nodes: a device syncing through either node ends with exactly the
 * hub's records, and never acknowledged a revision past a change it had not
 * received (for every record, it got the change log's latest revision).
 *
 * That holds because every write transaction takes the hub's one advisory
 * write lock, so change-log revisions commit in the order they are taken.
 * Without it, a session can start while revision r is still uncommitted on
 * one node and r+1 already committed on the other: the device's watermark
 * passes r and it never gets r. The tests are shown to catch that by running
 * them with the lock removed (OUTPOST_UNSAFE_NO_WRITE_LOCK, read by
 * PostgresDatabase.begin() for this alone):
 *
 *   OUTPOST_TEST_RACE_WITHOUT_LOCK=1 npx vitest run test/postgres/twoNodes.test.ts
 *
 * Then the gated test fails every time (the note held at the gate is never
 * synced), and the race fails on missed changes (5 runs of 7 at first;
 * later writes answered 500 too, two nodes taking one new id: ids now come from
 * sequences, and the ids test passes without the lock), and so does the task
 * added to a contact being deleted (a write's checks read under the lock). The race alone is a weak
 * detector: a node runs one statement at a time, so a transaction held open
 * on a node also holds up every request the device sends that node, and a
 * skip needs two session starts through the other node while a revision is
 * held back. Hence the gated test, the device's two sessions per node in
 * turn, and a trigger (in the test's database, in both runs) that keeps
 * some race transactions open for a while after taking their revision.
 */
const WITHOUT_LOCK = process.env.OUTPOST_TEST_RACE_WITHOUT_LOCK === '1';
/** Per node; each loop creates and updates contacts, tasks and notes. */
const WRITERS_PER_NODE = 4;
const ROUNDS_PER_WRITER = 8;
const SYNCED = ['contact', 'task', 'note'] as const;
const LISTS = { contact: '/v2/contacts', task: '/v2/tasks', note: '/v2/notes' } as const;

const missing = whyNoPostgres();
if (missing) console.log(`Two-node PostgreSQL tests skipped: ${missing}`);

type Doc = { id: number } & Record<string, unknown>;
interface Item {
  data: Doc;
  meta: { type: string; sync: { event_type: string; ack_key: string; revision: number } };
}

/** A node and the admin's token, as a client calls it. */
class Node {
  constructor(readonly name: string, readonly served: Served, private readonly token: string) {}

  async call(method: string, path: string, options: { data?: unknown; device?: string } = {}): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}`, Accept: 'application/json' };
    if (options.device) headers['X-Service-Device-UUID'] = options.device;
    if (options.data !== undefined) headers['Content-Type'] = 'application/json';
    const body = options.data === undefined ? undefined : JSON.stringify({ data: options.data });
    const answer = await fetch(`${this.served.url}${path}`, { method, headers, body });
    const text = await answer.text();
    return { status: answer.status, body: text ? JSON.parse(text) : null };
  }

  /** Every record of a list, by id. */
  async list(path: string): Promise<Doc[]> {
    const out: Doc[] = [];
    for (let page = 1; ; page++) {
      const answer = await this.call('GET', `${path}?per_page=100&page=${page}`);
      expect(answer.status, `${path} page ${page} on node ${this.name}: ${JSON.stringify(answer.body)}`).toBe(200);
      out.push(...answer.body.items.map((item: { data: Doc }) => item.data));
      if (!answer.body.meta.links.next_page) return out.sort((a, b) => a.id - b.id);
    }
  }
}

/**
 * A device as the spec's clients run sync: start, read every queue page,
 * acknowledge each page's keys, until the queue answers 204. It keeps its
 * copy of each record, the highest revision it received of each, and the
 * highest revision each session acknowledged.
 */
class Device {
  readonly uuid = randomUUID();
  readonly records = new Map<string, Item>();
  readonly received = new Map<string, number>();
  readonly sessions: { node: string; acked: number; items: number }[] = [];

  /** One whole session through `node`; the number of items it got. */
  async sync(node: Node): Promise<number> {
    const started = await node.call('POST', '/v2/sync/start', { device: this.uuid });
    if (started.status === 204) return 0;
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    let [items, acked] = [0, 0];
    for (;;) {
      const page = await node.call('GET', `/v2/sync/${started.body.data.id}/queues/main`, { device: this.uuid });
      if (page.status === 204) break;
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      for (const item of page.body.items as Item[]) this.apply(item);
      const keys = (page.body.items as Item[]).map((item) => item.meta.sync.ack_key);
      expect((await node.call('POST', '/v2/sync/ack', { device: this.uuid, data: { ack_keys: keys } })).status).toBe(202);
      items += keys.length;
      acked = Math.max(acked, ...(page.body.items as Item[]).map((item) => item.meta.sync.revision));
    }
    this.sessions.push({ node: node.name, acked, items });
    return items;
  }

  of(type: string): Doc[] {
    return [...this.records.values()].filter((item) => item.meta.type === type).map((item) => item.data).sort((a, b) => a.id - b.id);
  }

  private apply(item: Item): void {
    const key = `${item.meta.type}:${item.data.id}`;
    const { revision, event_type: event } = item.meta.sync;
    this.received.set(key, Math.max(revision, this.received.get(key) ?? 0));
    if (event === 'deleted') this.records.delete(key);
    else this.records.set(key, item);
  }
}

describe.skipIf(missing !== null)('two hub nodes on one PostgreSQL database', { timeout: 120_000 }, () => {
  let cluster: PostgresCluster;
  let database: pg.Client;
  let nodes: [Node, Node];

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const { url, token } = await hubDatabase(cluster);
    database = new pg.Client({ connectionString: url });
    await database.connect();
    await installGate(database);
    const env: Record<string, string> = WITHOUT_LOCK ? { OUTPOST_UNSAFE_NO_WRITE_LOCK: '1' } : {};
    // One after another: each migrates and replaces its functions on start.
    const a = await serve(tempDir(), env, ['--database-url', url]);
    const b = await serve(tempDir(), env, ['--database-url', url]);
    nodes = [new Node('A', a, token), new Node('B', b, token)];
  });

  afterAll(async () => {
    await database?.end();
    cleanUp();
    cluster?.stop();
  });

  it('reads a write made through one node through the other at once, and syncs it to a device through the other', async () => {
    const [a, b] = nodes;
    const created = await a.call('POST', '/v2/contacts', { data: { last_name: 'Written on A', email: 'a@example.com' } });
    expect(created.status).toBe(200);
    const contact = created.body.data as Doc;
    const read = await b.call('GET', `/v2/contacts/${contact.id}`);
    expect([read.status, read.body.data]).toEqual([200, contact]);
    expect((await b.list('/v2/contacts')).find((c) => c.id === contact.id)).toEqual(contact);

    const device = new Device();
    expect(await device.sync(b)).toBeGreaterThanOrEqual(1);
    expect(device.records.get(`contact:${contact.id}`)).toMatchObject({ data: contact, meta: { type: 'contact', sync: { event_type: 'created' } } });
    // And an update through B reaches a device syncing through A.
    const updated = await b.call('PUT', `/v2/contacts/${contact.id}`, { data: { title: 'Updated on B' } });
    expect(updated.status).toBe(200);
    expect(await device.sync(a)).toBe(1);
    expect(device.records.get(`contact:${contact.id}`)).toMatchObject({ data: updated.body.data, meta: { sync: { event_type: 'updated' } } });
  });

  it('never lets a device skip a revision still uncommitted on one node while a later one commits on the other', async () => {
    const [a, b] = nodes;
    const contact = (await a.call('POST', '/v2/contacts', { data: { last_name: 'Gatekeeper' } })).body.data as Doc;
    const device = new Device();
    while ((await device.sync(a)) > 0);
    // B's note takes the next revision, then waits at the gate before it commits.
    await database.query('SELECT pg_advisory_lock($1)', [GATE]);
    const held = b.call('POST', '/v2/notes', { data: { content: GATED_NOTE, resource_type: 'contact', resource_id: contact.id } });
    await until(() => waitingFor(database, GATE));
    // Meanwhile A writes (a later revision) and the device syncs through A. With the write lock, A's write
    // waits for B's transaction, and so does everything A serves: then the gate opens.
    const later = a.call('PUT', `/v2/contacts/${contact.id}`, { data: { title: 'Written while B waits' } });
    const synced = later.then(() => device.sync(a));
    let settled = false;
    void synced.then(() => (settled = true), () => (settled = true));
    await until(async () => settled || (await waitingFor(database, HUB_WRITE_LOCK)));
    await database.query('SELECT pg_advisory_unlock($1)', [GATE]);
    const [note, updated] = await Promise.all([held, later, synced]);
    expect([note.status, updated.status]).toEqual([200, 200]);
    while ((await device.sync(b)) > 0);

    expect(missedChanges(device, await latestRevisions(database))).toEqual([]);
    expect(device.records.get(`note:${note.body.data.id}`)?.data).toEqual(note.body.data);
    for (const type of SYNCED) expect(device.of(type), type).toEqual(await b.list(LISTS[type]));
  });

  it('keeps a device syncing through either node exact while writers on both nodes race', async () => {
    await widenCommitWindows(database, true);
    const device = new Device();
    const contacts: number[] = [];
    let running = true;
    const writers = nodes.flatMap((node) => Array.from({ length: WRITERS_PER_NODE }, (_, n) => writer(node, `${node.name}${n}`, contacts)));
    const done = Promise.all(writers).finally(() => (running = false));
    // Two sessions through A, two through B, and so on: a session started through the node that is not
    // holding a revision back is where a skipped revision would show.
    let sessions = 0;
    while (running) await device.sync(nodes[Math.floor(sessions++ / 2) % 2]!);
    const failures = (await done).flat();
    await widenCommitWindows(database, false);
    while ((await device.sync(nodes[sessions++ % 2]!)) > 0);

    const latest = await latestRevisions(database);
    const missed = missedChanges(device, latest);
    const items = device.sessions.reduce((sum, session) => sum + session.items, 0);
    console.log(`Race: ${device.sessions.length} sessions, ${items} items, ${latest.size} records; ${missed.length} missed; ${failures.length} failed writes`);
    expect(device.sessions.length).toBeGreaterThan(4);
    expect(missed).toEqual([]);
    for (const type of SYNCED) expect(device.of(type), type).toEqual(await nodes[sessions % 2]!.list(LISTS[type]));
    expect(failures).toEqual([]);
    expect(latest.size).toBeGreaterThanOrEqual(WRITERS_PER_NODE * 2 * ROUNDS_PER_WRITER * 3);
  });

  it('checks what a write reads under the write lock: a task is never added to a contact another node is deleting', async () => {
    const [a, b] = nodes;
    const contact = (await a.call('POST', '/v2/contacts', { data: { last_name: 'Deleted on B' } })).body.data as Doc;
    // B's delete takes the write lock, removes the contact and its tasks, then waits at the gate before it commits.
    await database.query(`CREATE TRIGGER test_gate_deletes AFTER INSERT ON change_log FOR EACH ROW
      WHEN (NEW.resource_type = 'contact' AND NEW.event_type = 'deleted') EXECUTE FUNCTION test_gate_any()`);
    await database.query('SELECT pg_advisory_lock($1)', [GATE]);
    try {
      const deleted = b.call('DELETE', `/v2/contacts/${contact.id}`);
      await until(() => waitingFor(database, GATE));
      // A's task names the contact: its check that the contact exists must not run before B commits.
      const task = a.call('POST', '/v2/tasks', { data: { content: 'Call them', resource_type: 'contact', resource_id: contact.id } });
      let settled = false;
      void task.finally(() => (settled = true));
      await until(async () => settled || (await waitingFor(database, HUB_WRITE_LOCK)));
      await database.query('SELECT pg_advisory_unlock($1)', [GATE]);
      expect((await deleted).status).toBe(204);
      const answer = await task;
      expect(answer.status, JSON.stringify(answer.body)).toBe(422);
    } finally {
      await database.query('DROP TRIGGER test_gate_deletes ON change_log');
      await database.query('SELECT pg_advisory_unlock_all()');
    }
    const orphans = await database.query("SELECT id FROM tasks WHERE resource_type = 'contact' AND resource_id = $1", [contact.id]);
    expect(orphans.rows).toEqual([]);
  });

  it('gives records created through both nodes at once distinct ids, never the id of a deleted record', async () => {
    const [a, b] = nodes;
    const create = (node: Node, n: number) => node.call('POST', '/v2/contacts', { data: { last_name: `Id ${node.name} ${n}` } });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, n) => [create(a, n), create(b, n)]).flat());
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const ids = answers.map((answer) => (answer.body.data as Doc).id);
    expect(new Set(ids).size).toBe(ids.length);

    // The newest contact deleted through B: A's next contact gets a new id.
    const newest = Math.max(...ids);
    expect((await b.call('DELETE', `/v2/contacts/${newest}`)).status).toBe(204);
    const next = (await create(a, 10)).body.data as Doc;
    expect(next.id).toBeGreaterThan(newest);

    // An id written past the sequence (a contact a copy brought in, since deleted: only its change-log entries
    // remain): both nodes step over it.
    const copied = next.id + 50;
    await database.query(`INSERT INTO change_log (resource_type, resource_id, event_type, actor_id, changed_at)
      VALUES ('contact', $1, 'deleted', NULL, '2026-01-01T00:00:00Z')`, [copied]);
    const after = await Promise.all([create(b, 11), create(a, 11)]);
    expect(after.map((answer) => (answer.body.data as Doc).id).sort((x, y) => x - y)).toEqual([copied + 1, copied + 2]);
  });
});

/**
 * One writer: each round creates a contact and updates it, adds a task and a
 * note to it and updates the task, then updates a contact another writer may
 * be updating too. Returns what failed (nothing, with the lock).
 */
async function writer(node: Node, name: string, contacts: number[]): Promise<string[]> {
  const failures: string[] = [];
  const write = async (method: string, path: string, data: unknown): Promise<Doc | null> => {
    const answer = await node.call(method, path, { data });
    if (answer.status === 200) return answer.body.data as Doc;
    failures.push(`${method} ${path} on ${node.name}: ${answer.status} ${answer.body?.errors?.[0]?.error?.code}`);
    return null;
  };
  for (let round = 0; round < ROUNDS_PER_WRITER; round++) {
    const contact = await write('POST', '/v2/contacts', { last_name: `Writer ${name}`, first_name: `Round ${round}` });
    if (!contact) continue;
    contacts.push(contact.id);
    await write('PUT', `/v2/contacts/${contact.id}`, { title: `${name} round ${round}` });
    const task = await write('POST', '/v2/tasks', { content: `Call ${name} ${round}`, resource_type: 'contact', resource_id: contact.id });
    await write('POST', '/v2/notes', { content: `Met ${name} ${round}`, resource_type: 'contact', resource_id: contact.id });
    if (task) await write('PUT', `/v2/tasks/${task.id}`, { completed: true });
    const other = contacts[(round * 7 + name.length) % contacts.length]!;
    await write('PUT', `/v2/contacts/${other}`, { description: `Touched by ${name} in round ${round}` });
  }
  return failures;
}

/** The advisory lock the test holds to keep one write waiting between taking its revision and committing. */
const GATE = 424_242;
const GATED_NOTE = 'Held at the gate';

/**
 * A trigger in the test's database (not the engine's): a change-log entry
 * for the note whose content is GATED_NOTE waits, after its revision is
 * taken, for the GATE lock the test holds; so that write commits exactly
 * when the test lets it.
 */
async function installGate(database: pg.Client): Promise<void> {
  await database.query(`CREATE FUNCTION test_gate() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    IF NEW.resource_type = 'note' AND EXISTS (SELECT 1 FROM notes WHERE id = NEW.resource_id AND content = '${GATED_NOTE}') THEN
      PERFORM pg_advisory_xact_lock_shared(${GATE});
    END IF;
    RETURN NULL;
  END $$`);
  await database.query('CREATE TRIGGER test_gate AFTER INSERT ON change_log FOR EACH ROW EXECUTE FUNCTION test_gate()');
  // For a test's own trigger (its WHEN says which entries): the transaction waits at the gate.
  await database.query(`CREATE FUNCTION test_gate_any() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    PERFORM pg_advisory_xact_lock_shared(${GATE}); RETURN NULL;
  END $$`);
}

/**
 * Another trigger in the test's database, for the race: every 20th change-log
 * entry's transaction sleeps 0.4 s after taking its revision, before it goes
 * on to commit, so a revision stays taken but uncommitted long enough for
 * the device's sessions through the other node to fall inside that window.
 */
async function widenCommitWindows(database: pg.Client, on: boolean): Promise<void> {
  if (!on) return void (await database.query('DROP TRIGGER test_commit_delay ON change_log'));
  await database.query(`CREATE OR REPLACE FUNCTION test_commit_delay() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.revision % 20 = 0 THEN PERFORM pg_sleep(0.4); END IF; RETURN NULL; END $$`);
  await database.query('CREATE TRIGGER test_commit_delay AFTER INSERT ON change_log FOR EACH ROW EXECUTE FUNCTION test_commit_delay()');
}

/** Some connection waits for this advisory lock (keys below 2^32: pg_locks shows them in objid). */
async function waitingFor(database: pg.Client, key: number): Promise<boolean> {
  const { rows } = await database.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = 0 AND objid::bigint = $1`, [key]);
  return rows.length > 0;
}

/** Resolves once `check` holds (polled); a scenario step, not an assertion on time. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('The awaited state never came.');
}

/** Each synced record's latest revision in the hub's change log, by `type:id`. */
async function latestRevisions(database: pg.Client): Promise<Map<string, number>> {
  const { rows } = await database.query<{ key: string; revision: string }>(
    `SELECT resource_type || ':' || resource_id AS key, MAX(revision) AS revision FROM change_log
      WHERE resource_type = ANY ($1) GROUP BY resource_type, resource_id`, [SYNCED]);
  return new Map(rows.map((row) => [row.key, Number(row.revision)]));
}

/**
 * Records whose latest change the device never received, each with the
 * first session that acknowledged a revision past it: the watermark moved
 * over a change the device did not have. Empty when the protocol is exact.
 */
function missedChanges(device: Device, latest: Map<string, number>): string[] {
  const missed: string[] = [];
  for (const [key, revision] of latest) {
    if (device.received.get(key) === revision) continue;
    const past = device.sessions.findIndex((session) => session.acked > revision);
    const got = device.received.get(key);
    missed.push(`${key} at revision ${revision} (device has ${got ?? 'nothing'}; session ${past + 1} through ${device.sessions[past]?.node} acknowledged revision ${device.sessions[past]?.acked})`);
  }
  return missed.sort();
}
