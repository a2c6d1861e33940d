import { randomUUID } from '../platform/crypto.js';
import type { Db } from '../db/database.js';
import { isoSeconds, type Clock } from '../clock.js';

export interface OutboxEntry {
  seq: number;
  op_key: string;
  method: 'POST' | 'PUT' | 'DELETE';
  resource_type: string;
  collection: string;
  record_id: number;
  data: string | null;
  /** An update's base: the values its fields had before the rep changed them (JSON), so the hub can tell a colleague's change from the rep's. */
  base: string | null;
  state: 'pending' | 'rejected';
  error: string | null;
  attempts: number;
  created_at: string;
}

export interface LocalChange {
  method: OutboxEntry['method'];
  type: string;
  /** The collection path (`/v2/tasks`). */
  collection: string;
  id: number;
  /** The fields the change sent; none for a delete. */
  data?: Record<string, unknown>;
  /** An update's base (changes/fieldPaths.ts: deltaOf). */
  base?: Record<string, unknown>;
}

/**
 * The replica's outbox: every local change as the REST call that replays it
 * on the hub, written in the transaction that makes the change (callers run
 * `add` inside it), replayed in order.
 */
export class Outbox {
  private readonly insert;
  private readonly statements;
  /** Called after each local change is queued (the replica syncs soon after). */
  onAdd: (() => void) | null = null;

  constructor(private readonly db: Db, private readonly clock: Clock) {
    this.insert = db.prepare(`INSERT INTO outbox (op_key, method, resource_type, collection, record_id, data, base, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
    this.statements = {
      pending: db.prepare("SELECT * FROM outbox WHERE state = 'pending' ORDER BY seq"),
      all: db.prepare('SELECT * FROM outbox ORDER BY seq'),
      get: db.prepare('SELECT * FROM outbox WHERE seq = ?'),
      done: db.prepare('DELETE FROM outbox WHERE seq = ?'),
      reject: db.prepare("UPDATE outbox SET state = 'rejected', error = ?, attempts = attempts + 1 WHERE seq = ?"),
      // A new Idempotency-Key: the hub keeps its refusal under the old one, and would answer it again.
      retry: db.prepare("UPDATE outbox SET state = 'pending', error = NULL, op_key = ? WHERE seq = ? AND state = 'rejected'"),
      tried: db.prepare('UPDATE outbox SET attempts = attempts + 1 WHERE seq = ?'),
      forRecord: db.prepare('SELECT COUNT(*) FROM outbox WHERE resource_type = ? AND record_id = ?').pluck(),
      counts: db.prepare("SELECT COUNT(*) FILTER (WHERE state = 'pending') AS pending, COUNT(*) FILTER (WHERE state = 'rejected') AS rejected FROM outbox"),
      renumber: db.prepare('UPDATE outbox SET record_id = ? WHERE resource_type = ? AND record_id = ?'),
      renumberEdits: db.prepare("UPDATE outbox SET record_id = ? WHERE resource_type = ? AND record_id = ? AND method = 'PUT'"),
      blocked: db.prepare("SELECT 1 FROM outbox WHERE resource_type = ? AND record_id = ? AND seq < ? AND state = 'rejected' LIMIT 1").pluck(),
      dropRecord: db.prepare('DELETE FROM outbox WHERE resource_type = ? AND record_id = ?'),
      creates: db.prepare("SELECT COUNT(*) FROM outbox WHERE method = 'POST' AND resource_type = ? AND record_id = ?").pluck(),
      recreate: db.prepare("UPDATE outbox SET method = 'POST', data = ?, base = NULL, state = 'pending', error = NULL, op_key = ? WHERE seq = ? AND state = 'rejected'"),
    };
  }

  add(change: LocalChange): void {
    const data = change.data === undefined ? null : JSON.stringify(change.data);
    const base = change.base === undefined ? null : JSON.stringify(change.base);
    this.insert.run(randomUUID(), change.method, change.type, change.collection, change.id, data, base, isoSeconds(this.clock.now()));
    this.onAdd?.();
  }

  pending(): OutboxEntry[] {
    return this.statements.pending.all() as OutboxEntry[];
  }

  all(): OutboxEntry[] {
    return this.statements.all.all() as OutboxEntry[];
  }

  get(seq: number): OutboxEntry | undefined {
    return this.statements.get.get(seq) as OutboxEntry | undefined;
  }

  /** The hub has it: the entry is gone. */
  done(seq: number): void {
    this.statements.done.run(seq);
  }

  /** The hub refused it (its answer kept for the user): a sync issue until retried or discarded. */
  reject(seq: number, error: string): void {
    this.statements.reject.run(error, seq);
  }

  retry(seq: number): boolean {
    return this.statements.retry.run(randomUUID(), seq).changes > 0;
  }

  /** A try that did not reach the hub (offline, or the hub failed): the entry stays pending. */
  tried(seq: number): void {
    this.statements.tried.run(seq);
  }

  /** True while a local change to this record is not yet on the hub (pending or refused). */
  holds(type: string, id: number): boolean {
    return (this.statements.forRecord.get(type, id) as number) > 0;
  }

  counts(): { pending: number; rejected: number } {
    return this.statements.counts.get() as { pending: number; rejected: number };
  }

  /** True when an earlier change to the same record was refused: this one waits behind it. */
  waitsOnIssue(entry: OutboxEntry): boolean {
    return this.statements.blocked.get(entry.resource_type, entry.record_id, entry.seq) !== undefined;
  }

  /** Drops every change to a record (the rep discarded them). */
  dropRecord(type: string, id: number): void {
    this.statements.dropRecord.run(type, id);
  }

  /** True while the create of this (temporary) record is still here, sent or refused. */
  hasCreate(type: string, id: number): boolean {
    return (this.statements.creates.get(type, id) as number) > 0;
  }

  /**
   * A refused change to a record deleted on the hub becomes the creation of
   * the record as this device holds it (`data`); false when it is no such issue.
   */
  recreate(seq: number, data: Record<string, unknown>): boolean {
    return this.statements.recreate.run(JSON.stringify(data), randomUUID(), seq).changes > 0;
  }

  /** A record merged into another on the hub: its waiting edits go to the survivor (its deletion stays: the hub answers it as done). */
  renumberEdits(type: string, from: number, to: number): void {
    this.statements.renumberEdits.run(to, type, from);
  }

  /** A temporary id became the hub's: later entries for that record use it. */
  renumber(type: string, from: number, to: number): void {
    this.statements.renumber.run(to, type, from);
  }
}
