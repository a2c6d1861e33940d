import type { Db } from './db/database.js';
import type { StatementCache } from './db/statements.js';
import type { CommitGroups } from './db/commitGroups.js';
import type { Clock } from './clock.js';
import type { ChangeLog } from './changes/changeLog.js';
import type { Dependents } from './dependents.js';
import type { Scope } from '../../shared/oauth.js';
import type { UserRole } from '../../shared/resources/user.js';
import type { Outbox } from './changes/outbox.js';
import type { SyncConflicts } from './changes/conflicts.js';
import type { WrittenAt } from './writtenAt.js';
import type { MergedIds } from './changes/mergedIds.js';

/** What every engine service works with: one connection, one clock, one change log. */
export interface EngineContext {
  db: Db;
  clock: Clock;
  statements: StatementCache;
  /** The REST writes' group commit (db/commitGroups.ts). */
  commits: CommitGroups;
  changes: ChangeLog;
  dependents: Dependents;
  /** Contacts and leads merged into others, so writes naming them reach their survivors. */
  mergedIds: MergedIds;
  /** A device's time of writing for the create being made (writtenAt.ts); null: now. */
  writtenAt: WrittenAt;
  /**
   * Called by this engine's own changes to tokens and permissions, so that its
   * token cache (PostgreSQL only: auth/tokens.ts) forgets at once rather than
   * when the database's notice of them arrives a moment later.
   */
  forgetCachedTokens?: () => void;
  /**
   * Set on a desktop replica: local creates get negative (temporary) ids
   * until the hub answers, and every change through the REST interface is
   * also written to the outbox in its transaction.
   */
  replica?: {
    outbox: Outbox;
    /** Fields changed both here and on the hub, until the rep chooses (changes/conflicts.ts). */
    conflicts: SyncConflicts;
    /** The records the REST interface reads and edits, by collection path, so the replica can show and resend them. */
    records: Map<string, LocalRecordService>;
    /** The driver build the engine opened its database with, for a second connection on a worker thread (replica/bulkLoad.ts). */
    nativeBinding?: string;
  };
}

/** What the replica needs of a resource's service: its JSON, and an update (for a conflict the rep resolves). */
export interface LocalRecordService {
  type: string;
  json(id: number, actor: Actor): string;
  update?(id: number, data: Record<string, unknown>, actor: Actor): void;
}

/**
 * The id a new row gets on a replica: negative, so it can never clash with a
 * hub id, and never given twice on this device (a counter, not the lowest id
 * in the table: an id whose record has since got its hub id, or was deleted,
 * may still be named by the id map or by changes waiting in the outbox).
 */
export function temporaryId(ctx: EngineContext, table: string): number | undefined {
  if (!ctx.replica) return undefined;
  const next = ctx.statements.get(`INSERT INTO replica_settings (name, value) VALUES ('last_temporary_id', (SELECT MIN(0, COALESCE(MIN(id), 0)) - 1 FROM ${table}))
    ON CONFLICT (name) DO UPDATE SET value = CAST(value AS INTEGER) - 1 RETURNING value`).pluck().get();
  return Number(next);
}

/**
 * The id of a new record: never one a deleted record had (SQLite would hand
 * out the id of the newest row again once it is deleted), since a device may
 * still hold that record or a change to it. Every id ever used is in the
 * change log's record_revisions, deleted records included. On SQLite (one
 * writer) the highest of those + 1; on PostgreSQL the table's identity
 * sequence (db/postgres/functions.ts: outpost_new_record_id), so that no
 * read has to be serialized across hub nodes for it. On a replica, a
 * temporary id instead.
 */
export function newRecordId(ctx: EngineContext, table: string, type: string): number {
  const temporary = temporaryId(ctx, table);
  if (temporary !== undefined) return temporary;
  if (ctx.db.dialect === 'postgres') return Number(ctx.statements.get('SELECT outpost_new_record_id(?, ?)').pluck().get(table, type));
  return ctx.statements.get(`SELECT MAX(
      (SELECT COALESCE(MAX(id), 0) FROM ${table}),
      (SELECT COALESCE(MAX(resource_id), 0) FROM record_revisions WHERE resource_type = ?)) + 1`).pluck().get(type) as number;
}

/** The authenticated caller of an operation. */
export interface Actor {
  userId: number;
  role: UserRole;
  scopes: ReadonlySet<Scope>;
}
