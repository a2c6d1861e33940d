import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { call, startTestHub, type TestHub } from '../support/testHub.js';
import { startTestReplica, switchedCable, type TestReplica } from '../support/testReplica.js';
import type { HubFetch } from '../../electron/engine/replica/hubFetch.js';

/**
 * Field-by-field merging of offline edits, as a model-based
 * property test with fast-check. One hub for the file (real engine, real
 * HTTP on 127.0.0.1; on PostgreSQL under vitest.postgres.config.ts) and, per
 * run, two or three fresh replicas (of the agent and the admin) that sync
 * with it once, then run a generated list of operations: create, edit
 * (several fields at once, sometimes to the value the field already has or
 * to the value another side shows), add and remove tags, delete — on the hub
 * or on a replica — cut or restore a replica's link, sync a replica, resolve
 * an open conflict (keep yours, keep theirs, a third value).
 *
 * Beside the engines runs a small model that follows the merge rules: a
 * replica's local state, its outbox (each update with the fields it changed
 * and their base, the value before the edit), its open conflicts and sync
 * issues; the hub's records. When a replica syncs, the model replays its
 * outbox on the model hub in order: a field is taken where the hub still
 * holds its base (or already the new value), else kept at the hub's value and
 * opened as a conflict on the replica (yours: the replica's value, theirs: the
 * hub's) — a field taken settles a conflict an earlier change of it left
 * open; tags merge item by item (the edit's additions added, its removals
 * removed, the rest as the hub has it); an update of a record gone from the
 * hub is a sync issue (deleted_on_hub) and the record's later changes wait
 * behind it. Then the replica takes the hub's state of every record it holds
 * no change for. Every sync is checked at once against the model (the hub and
 * that replica), so a shrunk failure points at the step that went wrong.
 *
 * After the operations every link is healed and every replica syncs, round
 * after round (bounded), until a round sends nothing to the hub. Then:
 *  1. the hub shows exactly the model's records (a change made on one side
 *     only is taken; fields changed on both sides keep the hub's value; tags
 *     changed on both sides hold both sides' additions and neither side's
 *     removals), and every replica shows what the hub shows, field by field;
 *  2. every open conflict is the model's: on the replica whose change was
 *     kept back, `yours` its value (the rep's latest change of that field
 *     there), `theirs` the hub's value now, and the replica shows the hub's
 *     value meanwhile; nothing else is open (a field the hub holds the rep's
 *     value of is no conflict);
 *  3. every contact created anywhere and deleted nowhere is on the hub and
 *     on every replica exactly once (by its key, in last_name); a contact
 *     deleted anywhere is gone everywhere, but where a replica changed it
 *     meanwhile: there it is a sync issue with deleted_on_hub, and stays;
 *  4. each replica shows exactly what the hub shows for every record not under
 *     a sync issue there, and its sync issues are exactly the model's;
 *  and each change left its replica exactly once (no change sent twice, none lost).
 *
 * Checks 2 to 4 (and the replicas' half of 1) are stated on what the engines
 * show, against each other; the model only says which case a field is in.
 * They guard the model too: the per-sync comparisons alone would pass an
 * engine and a model that are wrong alike.
 *
 * The seed is fixed (29) so CI runs the same cases every time (the same on
 * either backend), after the EXAMPLES below. A failure prints its shrunk
 * scenario, the trace of its run and its replay command:
 *   MERGE_SEED=… MERGE_PATH=… npx vitest run test/replica/mergeProperty.test.ts
 * (with `-c vitest.postgres.config.ts` for the hub on PostgreSQL). MERGE_RUNS
 * changes the number of runs; MERGE_SEED=random picks a new seed (a soak).
 */

const SEED = process.env.MERGE_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.MERGE_SEED ?? 29);
const PATH = process.env.MERGE_PATH || undefined;
const RUNS = Number(process.env.MERGE_RUNS ?? 40);
/** Operations per run, at most. */
const MAX_OPS = 50;
/** Rounds of syncing every replica, with every link healed, before the replicas must have settled. */
const SETTLE_ROUNDS = 5;
/** fast-check stops shrinking a failure after this long, and reports the smallest case found so far. */
const TIME_LIMIT_MS = 240_000;

// ---------------------------------------------------------------------------------------------------------------
// Contacts as the test sees them: four text fields and the tags. Values come from small pools, so sides often
// set the same value, or a value another side had.

const SCALARS = ['title', 'email', 'phone', 'description'] as const;
type Scalar = (typeof SCALARS)[number];
type Field = Scalar | 'tags';
const POOL: Record<Scalar, (string | null)[]> = {
  title: ['CEO', 'CTO', 'Buyer', null],
  email: ['ann@example.com', 'bob@example.com', null],
  phone: ['555-0101', '555-0102', null],
  description: ['Met at the fair', 'Wants a demo', null],
};
/** Tag names, made the run's own (`vip.7`): each run's replicas create tags the hub does not have yet. */
const TAGS = ['vip', 'lead', 'cold', 'partner'];

interface Contact {
  title: string | null;
  email: string | null;
  phone: string | null;
  description: string | null;
  /** Sorted, as the API serves them. */
  tags: string[];
}
type Values = Partial<Contact>;

const sorted = (tags: Iterable<string>) => [...new Set(tags)].sort();
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const show = (value: unknown) => JSON.stringify(value ?? null);
const copy = (c: Contact): Contact => ({ ...c, tags: [...c.tags] });
const contactOf = (data: Record<string, any>): Contact => ({
  title: data.title ?? null, email: data.email ?? null, phone: data.phone ?? null, description: data.description ?? null, tags: sorted(data.tags ?? []),
});
const valuesShown = (values: Values) => Object.entries(values).map(([f, v]) => `${f} ${show(v)}`).join(', ');

// ---------------------------------------------------------------------------------------------------------------
// Operations, as generated. Sides and records are small numbers taken modulo what exists when the operation
// runs (side 0 is the hub, side n the n-th replica; `pick` the n-th contact that side shows, oldest first), so
// a shrunk list still means something. An operation that finds nothing to act on does nothing.

/** A field's new value: a value of its pool, the value it has already, or the value another side shows. */
type Choice = { to: number } | { keep: true } | { like: number };
type Op =
  | { op: 'create'; side: number; values: Partial<Record<Scalar, number>>; tags: number[] }
  | { op: 'edit'; side: number; pick: number; changes: Partial<Record<Scalar, Choice>> }
  | { op: 'tags'; side: number; pick: number; add: number[]; remove: number[] }
  | { op: 'delete'; side: number; pick: number }
  | { op: 'link'; replica: number; online: boolean }
  | { op: 'sync'; replica: number }
  | { op: 'resolve'; replica: number; pick: number; choice: 'yours' | 'theirs' | { value: number } };

interface Scenario {
  replicas: number;
  /** Contacts on the hub before the replicas' first sync. */
  initial: { values: Partial<Record<Scalar, number>>; tags: number[] }[];
  ops: Op[];
}

const side = fc.nat({ max: 3 });
const pick = fc.nat({ max: 3 });
const poolValues = fc.record(
  Object.fromEntries(SCALARS.map((f) => [f, fc.nat({ max: POOL[f].length - 1 })])) as Record<Scalar, fc.Arbitrary<number>>,
  { requiredKeys: [] },
);
const tagSet = fc.uniqueArray(fc.nat({ max: TAGS.length - 1 }), { maxLength: 3 });
const choice: fc.Arbitrary<Choice> = fc.oneof(
  { weight: 5, arbitrary: fc.nat({ max: 3 }).map((to) => ({ to })) },
  { weight: 1, arbitrary: fc.constant({ keep: true as const }) },
  { weight: 2, arbitrary: fc.nat({ max: 3 }).map((like) => ({ like })) },
);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ op: fc.constant('create' as const), side, values: poolValues, tags: tagSet }) },
  {
    weight: 14,
    arbitrary: fc.record({
      op: fc.constant('edit' as const), side, pick,
      changes: fc.record(Object.fromEntries(SCALARS.map((f) => [f, choice])) as Record<Scalar, fc.Arbitrary<Choice>>, { requiredKeys: [] })
        .filter((changes) => Object.keys(changes).length > 0),
    }),
  },
  { weight: 7, arbitrary: fc.record({ op: fc.constant('tags' as const), side, pick, add: tagSet, remove: tagSet }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), side, pick }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('link' as const), replica: fc.nat({ max: 2 }), online: fc.boolean() }) },
  { weight: 7, arbitrary: fc.record({ op: fc.constant('sync' as const), replica: fc.nat({ max: 2 }) }) },
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('resolve' as const), replica: fc.nat({ max: 2 }), pick,
      choice: fc.oneof(fc.constant('yours' as const), fc.constant('theirs' as const), fc.nat({ max: 3 }).map((value) => ({ value }))),
    }),
  },
);
/**
 * Cases run before the generated ones, every time: failures this test found, shrunk.
 * - Two offline changes of a field, the first kept back against the hub's and the second the hub's
 *   value: the conflict the first opened stayed open, its "yours" a value the rep had changed again.
 */
const EXAMPLES: Scenario[] = [
  {
    replicas: 2,
    initial: [{ values: { title: 0 }, tags: [] }],
    ops: [
      { op: 'edit', side: 2, pick: 0, changes: { title: { to: 1 } } },
      { op: 'edit', side: 2, pick: 0, changes: { title: { to: 3 } } },
      { op: 'edit', side: 0, pick: 0, changes: { title: { to: 3 } } },
    ],
  },
];

const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  replicas: fc.integer({ min: 2, max: 3 }),
  initial: fc.array(fc.record({ values: poolValues, tags: tagSet }), { minLength: 1, maxLength: 2 }),
  // Unbiased: lengths spread over the whole range (fast-check favours short lists otherwise); shrinking is unaffected.
  ops: fc.noBias(fc.array(opArb, { maxLength: MAX_OPS, size: 'max' })),
});

// ---------------------------------------------------------------------------------------------------------------
// The model.

interface Entry {
  method: 'POST' | 'PUT' | 'DELETE';
  key: string;
  data?: Values;
  base?: Values;
  rejected?: boolean;
}

interface OpenConflict {
  key: string;
  field: Scalar;
  yours: string | null;
  theirs: string | null;
}

class ReplicaModel {
  readonly local = new Map<string, Contact>();
  readonly outbox: Entry[] = [];
  /** By `${key} ${field}`. */
  readonly conflicts = new Map<string, OpenConflict>();
  /** By `${key} ${field}`: the value this replica's rep last changed the field to (their latest word on it). */
  readonly lastChange = new Map<string, unknown>();
  online = true;

  constructor(readonly index: number, readonly name: string) {}

  /** True when an earlier change to the record was refused: this one waits behind it. */
  waits(entry: Entry): boolean {
    return this.outbox.some((e) => e !== entry && e.rejected && e.key === entry.key && this.outbox.indexOf(e) < this.outbox.indexOf(entry));
  }

  holds(key: string): boolean {
    return this.outbox.some((e) => e.key === key);
  }

  dropConflicts(key: string): void {
    for (const [id, c] of this.conflicts) if (c.key === key) this.conflicts.delete(id);
  }
}

/** What happened in a run, for the summary (and the coverage check: every rule of the merge was exercised). */
interface Tally {
  runs: number;
  ops: number;
  syncs: number;
  pushed: number;
  /** A replica's field taken by the hub where it still held the base. */
  taken: number;
  /** Taken because the hub held the new value already (both sides made the same change). */
  sameChange: number;
  conflicts: number;
  /** Tags merged where both sides had changed them. */
  tagMerges: number;
  deletedOnHub: number;
  resolved: number;
  /** Conflicts still open at the end of a run. */
  openAtEnd: number;
}

const tally: Tally = { runs: 0, ops: 0, syncs: 0, pushed: 0, taken: 0, sameChange: 0, conflicts: 0, tagMerges: 0, deletedOnHub: 0, resolved: 0, openAtEnd: 0 };

class Model {
  readonly hub = new Map<string, Contact>();
  /** Every key ever created, in order; and those deleted anywhere. */
  readonly created: string[] = [];
  readonly deleted = new Set<string>();
  readonly replicas: ReplicaModel[];

  constructor(count: number) {
    this.replicas = Array.from({ length: count }, (_, i) => new ReplicaModel(i, `r${i}`));
  }

  /** What a side shows, oldest first. */
  shown(sideIndex: number): string[] {
    const records = sideIndex === 0 ? this.hub : this.replicas[sideIndex - 1].local;
    return this.created.filter((key) => records.has(key));
  }

  recordOf(sideIndex: number, key: string): Contact | undefined {
    return sideIndex === 0 ? this.hub.get(key) : this.replicas[sideIndex - 1].local.get(key);
  }

  /** A direct write on the hub (another device, no base): the fields are set as given. */
  hubCreate(key: string, values: Contact): void {
    this.created.push(key);
    this.hub.set(key, copy(values));
  }

  hubEdit(key: string, values: Values): void {
    Object.assign(this.hub.get(key)!, values, values.tags ? { tags: sorted(values.tags) } : {});
  }

  hubDelete(key: string): void {
    this.hub.delete(key);
    this.deleted.add(key);
  }

  localCreate(r: ReplicaModel, key: string, values: Contact): void {
    this.created.push(key);
    r.local.set(key, copy(values));
    r.outbox.push({ method: 'POST', key, data: copy(values) });
  }

  /** A local edit: applied at once; only the fields it changed are queued, with their base; their conflicts close. */
  localEdit(r: ReplicaModel, key: string, values: Values): Field[] {
    const before = r.local.get(key)!;
    const after = { ...copy(before), ...values, tags: sorted(values.tags ?? before.tags) };
    const changed = ([...SCALARS, 'tags'] as Field[]).filter((f) => !same(before[f], after[f]));
    for (const f of changed) {
      r.conflicts.delete(`${key} ${f}`);
      r.lastChange.set(`${key} ${f}`, after[f]);
    }
    r.local.set(key, after);
    if (changed.length > 0) {
      r.outbox.push({
        method: 'PUT', key,
        data: Object.fromEntries(changed.map((f) => [f, after[f]])),
        base: Object.fromEntries(changed.map((f) => [f, before[f]])),
      });
    }
    return changed;
  }

  localDelete(r: ReplicaModel, key: string): void {
    r.local.delete(key);
    this.deleted.add(key);
    r.outbox.push({ method: 'DELETE', key });
  }

  /** A sync with the link up: the outbox replayed on the hub in order, then the hub's state pulled. Returns what was sent. */
  sync(r: ReplicaModel, trace: (line: string) => void): number {
    if (!r.online) return 0;
    let sent = 0;
    for (const entry of [...r.outbox]) {
      if (entry.rejected || r.waits(entry)) continue;
      sent++;
      tally.pushed++;
      if (entry.method === 'POST') {
        this.hub.set(entry.key, copy(entry.data as Contact));
        trace(`  hub ← ${r.name} POST ${entry.key}`);
      } else if (entry.method === 'DELETE') {
        this.hub.delete(entry.key);
        r.dropConflicts(entry.key);
        trace(`  hub ← ${r.name} DELETE ${entry.key}`);
      } else {
        const record = this.hub.get(entry.key);
        if (!record) {
          entry.rejected = true;
          tally.deletedOnHub++;
          trace(`  hub ← ${r.name} PUT ${entry.key} {${valuesShown(entry.data!)}}: 404, a sync issue (deleted on the hub)`);
          continue;
        }
        const notes: string[] = [];
        for (const [f, value] of Object.entries(entry.data!) as [Field, any][]) {
          const base = entry.base![f];
          if (f === 'tags') {
            const removed = (base as string[]).filter((t) => !value.includes(t));
            const added = (value as string[]).filter((t) => !(base as string[]).includes(t));
            if (!same(record.tags, base)) {
              tally.tagMerges++;
              notes.push(`tags merged onto ${show(record.tags)}`);
            }
            record.tags = sorted([...record.tags.filter((t) => !removed.includes(t)), ...added]);
          } else if (same(record[f], base) || same(record[f], value)) {
            if (same(record[f], base)) tally.taken++;
            else tally.sameChange++;
            record[f] = value;
            // The rep's latest word on the field is on the hub: a conflict an earlier change of it left open is settled.
            if (r.conflicts.delete(`${entry.key} ${f}`)) notes.push(`${f} taken: the conflict an earlier change left open is settled`);
          } else {
            tally.conflicts++;
            r.conflicts.set(`${entry.key} ${f}`, { key: entry.key, field: f, yours: value, theirs: record[f] });
            notes.push(`conflict on ${f}: yours ${show(value)}, theirs ${show(record[f])}`);
          }
        }
        trace(`  hub ← ${r.name} PUT ${entry.key} {${valuesShown(entry.data!)}} (base {${valuesShown(entry.base!)}})${notes.length ? `: ${notes.join('; ')}` : ''}`);
      }
      r.outbox.splice(r.outbox.indexOf(entry), 1);
      // The hub's answer is the record as it holds it now: shown here unless more changes to it wait (or it went here).
      const now = this.hub.get(entry.key);
      if (now && r.local.has(entry.key) && !r.holds(entry.key)) r.local.set(entry.key, copy(now));
    }
    // The pull: every record the replica holds no change for takes the hub's state; its conflicts follow it.
    for (const key of this.created) {
      if (r.holds(key)) continue;
      const now = this.hub.get(key);
      if (!now) {
        r.local.delete(key);
        r.dropConflicts(key);
        continue;
      }
      r.local.set(key, copy(now));
      for (const [id, c] of r.conflicts) {
        if (c.key !== key) continue;
        if (same(now[c.field], c.yours)) r.conflicts.delete(id);
        else c.theirs = now[c.field];
      }
    }
    return sent;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The real side: a hub for the file, fresh replicas per run.

interface Device {
  index: number;
  name: string;
  test: TestReplica;
  net: { online: boolean };
  /** Writes the hub received from this replica (POST, PUT, DELETE of contacts), and their answers. */
  writes: { method: string; path: string; status: number }[];
}

/** The replica's cable, switched, counting the writes that reach the hub. */
function countingCable(net: { online: boolean }, writes: Device['writes']): HubFetch {
  const switched = switchedCable(net);
  return async (url, init) => {
    const response = await switched(url, init);
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = new URL(url).pathname;
    if (method !== 'GET' && path.startsWith('/v2/contacts')) writes.push({ method, path, status: response.status });
    return response;
  };
}

/** A contact as some side shows it, with its id there. */
interface Shown extends Contact {
  id: number;
  key: string;
}

class Run {
  readonly model: Model;
  readonly devices: Device[] = [];
  readonly log: string[] = [];
  /** Contacts of the run have last names `m<run>-c<n>`, where `c<n>` is the key. */
  readonly prefix: string;
  private counter = 0;
  /** Every id a record of the run was seen under: hub ids (`7`) for all sides, temporary ids per replica (`r1:-3`). */
  private readonly keysById = new Map<string, string>();

  constructor(readonly hub: TestHub, readonly scenario: Scenario, readonly runNumber: number) {
    this.model = new Model(scenario.replicas);
    this.prefix = `m${runNumber}-`;
  }

  tag(index: number): string {
    return `${TAGS[index]}.${this.runNumber}`;
  }

  trace(line: string): void {
    this.log.push(line);
  }

  fail(message: string): never {
    throw new Error(message);
  }

  /** Side 0 is the hub, side n the n-th replica. */
  sideName(sideIndex: number): string {
    return sideIndex === 0 ? 'hub' : this.devices[sideIndex - 1].name;
  }

  target(sideIndex: number): { url: string; token: string } {
    return sideIndex === 0 ? { url: this.hub.url, token: this.hub.adminToken } : { url: this.devices[sideIndex - 1].test.local.url, token: this.devices[sideIndex - 1].test.token };
  }

  newKey(): string {
    return `c${++this.counter}`;
  }

  /** The run's contacts a side shows, by key; a key shown twice is a failure at once. */
  async contacts(sideIndex: number): Promise<Map<string, Shown>> {
    const { url, token } = this.target(sideIndex);
    const found = new Map<string, Shown>();
    for (let page = 1; ; page++) {
      const answer = await call({ url }, 'GET', `/v2/contacts?per_page=100&page=${page}`, { token });
      if (answer.status !== 200) this.fail(`GET /v2/contacts on ${this.sideName(sideIndex)} answered ${answer.status}: ${answer.text}`);
      for (const { data } of answer.body.items as { data: Record<string, any> }[]) {
        if (typeof data.last_name !== 'string' || !data.last_name.startsWith(this.prefix)) continue;
        const key = data.last_name.slice(this.prefix.length);
        if (found.has(key)) this.fail(`${this.sideName(sideIndex)} shows ${key} twice (ids ${found.get(key)!.id} and ${data.id})`);
        found.set(key, { ...contactOf(data), id: data.id, key });
        this.keysById.set(this.idName(sideIndex, data.id), key);
      }
      if (!answer.body.meta.links.next_page) break;
    }
    return found;
  }

  private idName(sideIndex: number, id: number): string {
    return id > 0 ? String(id) : `${this.sideName(sideIndex)}:${id}`;
  }

  /** The key of a record a replica names by id (it may be gone from every side by now). */
  keyOf(r: number, id: number): string {
    return this.keysById.get(this.idName(r + 1, id)) ?? `#${id}`;
  }

  async idOf(sideIndex: number, key: string): Promise<number> {
    const record = (await this.contacts(sideIndex)).get(key);
    if (!record) this.fail(`the model says ${this.sideName(sideIndex)} shows ${key}, but it does not`);
    return record.id;
  }

  async write(sideIndex: number, method: string, path: string, data?: Record<string, unknown>): Promise<any> {
    const { url, token } = this.target(sideIndex);
    const answer = await call({ url }, method, path, { token, data });
    if (answer.status >= 300) this.fail(`${this.sideName(sideIndex)} refused ${method} ${path} ${JSON.stringify(data ?? null)}: ${answer.status} ${answer.text}`);
    return answer.body;
  }

  async start(): Promise<void> {
    for (const values of this.scenario.initial) await this.create(0, values.values, values.tags);
    for (let i = 0; i < this.scenario.replicas; i++) {
      const net = { online: true };
      const writes: Device['writes'] = [];
      // r0 and r2 are the agent's devices, r1 the admin's.
      const user = i === 1 ? this.hub.adminId : this.hub.agentId;
      const test = await startTestReplica(this.hub, user, { fetch: countingCable(net, writes) });
      this.devices.push({ index: i, name: `r${i}`, test, net, writes });
      const status = await test.replica.sync();
      if (status.last_error) this.fail(`r${i}: its first sync failed: ${status.last_error}`);
      this.model.sync(this.model.replicas[i], () => undefined);
    }
    this.trace(`start: the hub has ${this.model.created.map((k) => `${k} ${JSON.stringify(this.model.hub.get(k))}`).join(', ')}; ${this.scenario.replicas} replicas synced (r0, r2: the agent; r1: the admin)`);
  }

  async close(): Promise<void> {
    for (const d of this.devices) await d.test.close();
    // The hub outlives the run: the run's contacts and tags go, so the next run's replicas start from an empty hub.
    for (const c of (await this.contacts(0)).values()) await call(this.hub, 'DELETE', `/v2/contacts/${c.id}`, { token: this.hub.adminToken });
    const tags = await call(this.hub, 'GET', '/v2/tags?per_page=100', { token: this.hub.adminToken });
    for (const { data } of tags.body.items as { data: { id: number } }[]) await call(this.hub, 'DELETE', `/v2/tags/${data.id}`, { token: this.hub.adminToken });
  }

  private valuesOf(values: Partial<Record<Scalar, number>>, tags: number[]): Contact {
    const contact = contactOf({});
    for (const [f, i] of Object.entries(values) as [Scalar, number][]) contact[f] = POOL[f][i];
    contact.tags = sorted(tags.map((t) => this.tag(t)));
    return contact;
  }

  async create(sideIndex: number, values: Partial<Record<Scalar, number>>, tags: number[]): Promise<void> {
    const key = this.newKey();
    const contact = this.valuesOf(values, tags);
    // Only the fields given (and the tags when there are some), as a form would send them.
    const data: Record<string, unknown> = { last_name: `${this.prefix}${key}` };
    for (const f of Object.keys(values) as Scalar[]) data[f] = contact[f];
    if (contact.tags.length > 0) data.tags = tags.map((t) => this.tag(t));
    const answer = await this.write(sideIndex, 'POST', '/v2/contacts', data);
    this.keysById.set(this.idName(sideIndex, answer.data.id), key);
    if (sideIndex === 0) this.model.hubCreate(key, contact);
    else this.model.localCreate(this.model.replicas[sideIndex - 1], key, contact);
    this.trace(`${this.sideName(sideIndex)} create ${key} ${JSON.stringify(contact)}`);
  }

  /** Runs one operation on the engines and the model. */
  async apply(op: Op): Promise<void> {
    const sides = this.scenario.replicas + 1;
    if (op.op === 'create') return this.create(op.side % sides, op.values, op.tags);
    if (op.op === 'edit' || op.op === 'tags' || op.op === 'delete') {
      const sideIndex = op.side % sides;
      const shown = this.model.shown(sideIndex);
      if (shown.length === 0) return;
      const key = shown[op.pick % shown.length];
      const current = this.model.recordOf(sideIndex, key)!;
      const path = `/v2/contacts/${await this.idOf(sideIndex, key)}`;
      const who = this.sideName(sideIndex);
      if (op.op === 'delete') {
        await this.write(sideIndex, 'DELETE', path);
        if (sideIndex === 0) this.model.hubDelete(key);
        else this.model.localDelete(this.model.replicas[sideIndex - 1], key);
        this.trace(`${who} delete ${key}`);
        return;
      }
      const data: Values = {};
      if (op.op === 'tags') {
        const remove = op.remove.map((t) => this.tag(t));
        // Sent in the order a UI might: what stays, then what is added (the hub serves them sorted).
        data.tags = [...new Set([...current.tags.filter((t) => !remove.includes(t)), ...op.add.map((t) => this.tag(t))])];
      } else {
        for (const [f, c] of Object.entries(op.changes) as [Scalar, Choice][]) {
          if ('to' in c) data[f] = POOL[f][c.to % POOL[f].length];
          else if ('keep' in c) data[f] = current[f];
          else {
            // The value another side shows (when it has the record at all).
            const other = this.model.recordOf(c.like % sides, key);
            if (other) data[f] = other[f];
          }
        }
        if (Object.keys(data).length === 0) return;
      }
      await this.write(sideIndex, 'PUT', path, data);
      if (sideIndex === 0) {
        this.model.hubEdit(key, data);
        this.trace(`hub edit ${key} {${valuesShown(data)}}`);
      } else {
        const changed = this.model.localEdit(this.model.replicas[sideIndex - 1], key, data);
        this.trace(`${who} edit ${key} {${valuesShown(data)}}${changed.length === 0 ? ': nothing changed, nothing queued' : ''}`);
      }
      return;
    }
    if (op.op === 'resolve') return this.resolve(op);
    const r = op.replica % this.scenario.replicas;
    const device = this.devices[r];
    const rm = this.model.replicas[r];
    if (op.op === 'link') {
      device.net.online = rm.online = op.online;
      this.trace(`r${r} ${op.online ? 'online' : 'offline'}`);
      return;
    }
    await this.sync(r);
  }

  /** One of the open conflicts of one of the replicas that have some, on a record it shows (as its screens offer them). */
  async resolve(op: Extract<Op, { op: 'resolve' }>): Promise<void> {
    const openOn = (rm: ReplicaModel) => [...rm.conflicts.values()].filter((c) => rm.local.has(c.key));
    const candidates = this.model.replicas.filter((rm) => openOn(rm).length > 0);
    if (candidates.length === 0) return;
    const rm = candidates[op.replica % candidates.length];
    const r = rm.index;
    const device = this.devices[r];
    const open = openOn(rm).sort((a, b) => this.model.created.indexOf(a.key) - this.model.created.indexOf(b.key) || a.field.localeCompare(b.field));
    const conflict = open[op.pick % open.length];
    const recordId = await this.idOf(r + 1, conflict.key);
    const listed = await call(device.test.local, 'GET', '/v2/replica/conflicts?per_page=100', { token: device.test.token });
    const actual = (listed.body.items as { data: { id: number; record_id: number; field: string } }[]).find((i) => i.data.record_id === recordId && i.data.field === conflict.field);
    if (!actual) this.fail(`r${r}: the model has a conflict on ${conflict.key}'s ${conflict.field} open, the replica does not (it lists ${listed.text})`);
    const value = typeof op.choice === 'object' ? POOL[conflict.field][op.choice.value % POOL[conflict.field].length] : null;
    const body = typeof op.choice === 'object' ? { value } : { keep: op.choice };
    await this.write(r + 1, 'POST', `/v2/replica/conflicts/${actual.data.id}/resolve`, body);
    tally.resolved++;
    rm.conflicts.delete(`${conflict.key} ${conflict.field}`);
    if (op.choice === 'yours') this.model.localEdit(rm, conflict.key, { [conflict.field]: conflict.yours });
    else if (typeof op.choice === 'object') this.model.localEdit(rm, conflict.key, { [conflict.field]: value });
    this.trace(`r${r} resolve ${conflict.key}'s ${conflict.field} (yours ${show(conflict.yours)}, theirs ${show(conflict.theirs)}): ${JSON.stringify(body)}`);
  }

  /** One sync of replica r, on the engine and in the model, checked at once: the hub, and that replica. */
  async sync(r: number): Promise<number> {
    const device = this.devices[r];
    const rm = this.model.replicas[r];
    this.trace(`r${r} sync${rm.online ? '' : ' (offline)'}`);
    const before = device.writes.length;
    const status = await device.test.replica.sync();
    const sent = this.model.sync(rm, (line) => this.trace(line));
    tally.syncs++;
    const arrived = device.writes.slice(before);
    if (arrived.length !== sent) {
      this.fail(`r${r}: ${arrived.length} changes reached the hub in this sync (${arrived.map((w) => `${w.method} ${w.path} → ${w.status}`).join(', ')}), the model sent ${sent}`);
    }
    if (rm.online && status.last_error) this.fail(`r${r}: the sync failed with the link up: ${status.last_error}`);
    if (!rm.online) return sent;
    await this.expectHub();
    await this.expectReplica(r);
    return sent;
  }

  /** The hub shows exactly the model's records. */
  async expectHub(): Promise<Map<string, Shown>> {
    const actual = await this.contacts(0);
    const shown = (m: Map<string, Contact>) => Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)).map(([k, c]) => [k, contactOf(c)]));
    const expected = shown(this.model.hub);
    const got = shown(actual);
    if (!same(got, expected)) this.fail(`the hub shows ${differences(got, expected)}`);
    return actual;
  }

  /** A replica shows exactly the model's local records, open conflicts and sync issues. */
  async expectReplica(r: number): Promise<Map<string, Shown>> {
    const device = this.devices[r];
    const rm = this.model.replicas[r];
    const actual = await this.contacts(r + 1);
    const shown = (m: Map<string, Contact>) => Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)).map(([k, c]) => [k, contactOf(c)]));
    const got = shown(actual);
    const expected = shown(rm.local);
    if (!same(got, expected)) this.fail(`r${r} shows ${differences(got, expected)}`);
    const conflicts = device.test.replica.conflictList().map((c) => `${this.keyOf(r, c.record_id)} ${c.field}: yours ${show(c.yours.value)}, theirs ${show(c.theirs.value)}`).sort();
    const modelConflicts = [...rm.conflicts.values()].map((c) => `${c.key} ${c.field}: yours ${show(c.yours)}, theirs ${show(c.theirs)}`).sort();
    if (!same(conflicts, modelConflicts)) this.fail(`r${r}'s open conflicts are ${show(conflicts)}, the model's ${show(modelConflicts)}`);
    const issues = device.test.replica.issues().map((i) => `${i.method} ${this.keyOf(r, i.record_id)}${i.deleted_on_hub ? ' (deleted on the hub)' : ''}`).sort();
    const modelIssues = rm.outbox.filter((e) => e.rejected).map((e) => `${e.method} ${e.key} (deleted on the hub)`).sort();
    if (!same(issues, modelIssues)) this.fail(`r${r}'s sync issues are ${show(issues)}, the model's ${show(modelIssues)}`);
    const pending = device.test.replica.status().pending;
    const modelPending = rm.outbox.filter((e) => !e.rejected).length;
    if (pending !== modelPending) this.fail(`r${r} has ${pending} changes pending, the model ${modelPending}`);
    return actual;
  }

  /** Every link healed; every replica syncs, round after round, until a round sends nothing to the hub. */
  async settle(): Promise<void> {
    this.trace('— every link healed');
    for (const d of this.devices) d.net.online = this.model.replicas[d.index].online = true;
    for (let round = 1; ; round++) {
      let sent = 0;
      for (const d of this.devices) sent += await this.sync(d.index);
      if (sent === 0) return;
      if (round === SETTLE_ROUNDS) this.fail(`the replicas still sent changes to the hub after ${SETTLE_ROUNDS} rounds of syncing with every link up`);
    }
  }

  /** The properties, on what the engines show (the model says which case each field is in). */
  async finalChecks(): Promise<void> {
    const hub = await this.expectHub();
    const views: Map<string, Shown>[] = [];
    for (const d of this.devices) views.push(await this.expectReplica(d.index));
    const problems: string[] = [];
    // 3. No record lost or duplicated (duplicates fail in contacts()); deletes win, but never silently over an edit.
    for (const key of this.model.created) {
      const deleted = this.model.deleted.has(key);
      if (!deleted && !hub.has(key)) problems.push(`${key} was deleted nowhere, yet the hub does not show it`);
      if (deleted && hub.has(key)) problems.push(`${key} was deleted, yet the hub shows it`);
      for (const d of this.devices) {
        const here = views[d.index].has(key);
        const issue = d.test.replica.issues().some((i) => i.deleted_on_hub && views[d.index].get(key)?.id === i.record_id);
        if (!deleted && !here) problems.push(`${key} was deleted nowhere, yet ${d.name} does not show it`);
        if (deleted && here && !issue) problems.push(`${key} was deleted, yet ${d.name} shows it without a sync issue saying it was deleted on the hub`);
      }
    }
    for (const d of this.devices) {
      const rm = this.model.replicas[d.index];
      const view = views[d.index];
      const issueIds = new Set(d.test.replica.issues().map((i) => i.record_id));
      // 4. The replica shows what the hub shows, for every record not under a sync issue there.
      for (const [key, record] of hub) {
        const mine = view.get(key);
        if (issueIds.has(record.id)) continue;
        if (!mine) problems.push(`${d.name} does not show ${key}, which the hub shows`);
        else if (!same(contactOf(mine), contactOf(record)) || mine.id !== record.id) {
          problems.push(`${d.name} shows ${key} as ${JSON.stringify(mine)}, the hub as ${JSON.stringify(record)}`);
        }
      }
      for (const [key, mine] of view) if (!hub.has(key) && !issueIds.has(mine.id)) problems.push(`${d.name} shows ${key}, which the hub does not, and has no sync issue about it`);
      // 2. Every open conflict: on a record the hub has, yours = this replica's kept-back value, theirs = the hub's
      // value now, which the replica shows meanwhile.
      for (const c of d.test.replica.conflictList()) {
        const record = [...hub.values()].find((h) => h.id === c.record_id);
        const field = c.field as Scalar;
        if (!record) {
          if (!issueIds.has(c.record_id)) problems.push(`${d.name} has a conflict open on contact ${c.record_id}, which the hub does not have`);
          continue;
        }
        if (!same(c.theirs.value, record[field])) problems.push(`${d.name}'s conflict on ${record.key}'s ${field} says theirs is ${show(c.theirs.value)}, the hub holds ${show(record[field])}`);
        if (same(c.yours.value, record[field])) problems.push(`${d.name}'s conflict on ${record.key}'s ${field} is still open, though the hub holds its value ${show(c.yours.value)}`);
        if (!issueIds.has(record.id) && !same(view.get(record.key)?.[field], record[field])) problems.push(`${d.name} shows ${record.key}'s ${field} as ${show(view.get(record.key)?.[field])} during a conflict, not the hub's ${show(record[field])}`);
        // Yours is the rep's latest change of the field, not one they changed again since (offline, before the hub answered).
        const latest = rm.lastChange.get(`${record.key} ${field}`);
        if (!same(latest, c.yours.value)) problems.push(`${d.name}'s conflict on ${record.key}'s ${field} keeps ${show(c.yours.value)} as yours, but the rep's latest change of it there was to ${show(latest)}`);
      }
      tally.openAtEnd += rm.conflicts.size;
    }
    if (problems.length > 0) this.fail(problems.join('\n'));
  }
}

/** The keys whose records differ between what a side shows and what it should. */
function differences(got: Record<string, Contact>, expected: Record<string, Contact>): string {
  const keys = [...new Set([...Object.keys(got), ...Object.keys(expected)])].sort();
  return keys.filter((k) => !same(got[k], expected[k]))
    .map((k) => `${k} as ${got[k] ? JSON.stringify(got[k]) : 'missing'}, expected ${expected[k] ? JSON.stringify(expected[k]) : 'missing'}`).join('; ');
}

/** One run of a scenario; a failure carries the run's trace. */
async function runScenario(hub: TestHub, scenario: Scenario, runNumber: number): Promise<void> {
  // Sync sessions idle for ten minutes expire: the clock moves on between runs, so the runs' devices never pile up.
  hub.clock.advance(11 * 60_000);
  const run = new Run(hub, scenario, runNumber);
  tally.runs++;
  try {
    await run.start();
    for (const op of scenario.ops) {
      await run.apply(op);
      tally.ops++;
    }
    await run.settle();
    await run.finalChecks();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(`${message}\n--- trace ---\n${run.log.join('\n')}`);
  } finally {
    await run.close();
  }
}

describe('offline edits merge field by field (model-based, fast-check)', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startTestHub();
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('hub and replicas agree: one-sided changes everywhere, both-sided ones equal or open conflicts, nothing lost or doubled', async () => {
    let runNumber = 0;
    const property = fc.asyncProperty(scenarioArb, (scenario) => runScenario(hub, scenario, ++runNumber));
    const details = (await fc.check(property, {
      seed: SEED, path: PATH, numRuns: RUNS, examples: EXAMPLES.map((example) => [example] as [Scenario]),
      plugins: [fc.interruptAfterTimeLimit(TIME_LIMIT_MS, { failOnInterrupt: true })],
    })) as fc.RunDetails<[Scenario]>;
    const summary = `seed ${SEED}: ${tally.runs} runs (shrinking included), ${tally.ops} operations, ${tally.syncs} syncs, ${tally.pushed} changes pushed; `
      + `fields taken ${tally.taken}, same change on both sides ${tally.sameChange}, conflicts ${tally.conflicts} (${tally.openAtEnd} open at the end), `
      + `tags merged over a change on the hub ${tally.tagMerges}, changes to records deleted on the hub ${tally.deletedOnHub}, conflicts resolved ${tally.resolved}`;
    console.info(summary);
    if (details.failed) {
      const config = process.env.OUTPOST_TEST_POSTGRES_URL ? '-c vitest.postgres.config.ts ' : '';
      const replay = `MERGE_SEED=${details.seed} MERGE_PATH=${details.counterexamplePath ?? ''} npx vitest run ${config}test/replica/mergeProperty.test.ts`;
      const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance ?? 'interrupted before a counterexample was found');
      throw new Error(`The property failed after ${details.numRuns} runs and ${details.numShrinks} shrinks${details.interrupted ? ' (shrinking stopped by the time limit)' : ''}.\n`
        + `Replay: ${replay}\n`
        + `Shrunk scenario: ${fc.stringify(details.counterexample?.[0]).replaceAll('__proto__:null,', '')}\n${error}`);
    }
    // Every rule of the merge was exercised (a replay of one path need not exercise all of them).
    if (!PATH) {
      for (const name of ['taken', 'sameChange', 'conflicts', 'tagMerges', 'deletedOnHub', 'resolved', 'openAtEnd'] as const) {
        expect(tally[name], `${name}: ${summary}`).toBeGreaterThan(0);
      }
    }
  }, TIME_LIMIT_MS + 60_000);
});
