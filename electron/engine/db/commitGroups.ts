import type { Db } from './database.js';
import { atTurnEnd } from '../platform/timers.js';

/** A group's COMMIT failed: none of its writes were kept. */
export class CommitFailedError extends Error {
  constructor(cause: unknown) {
    super(`The changes could not be saved: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

interface Group {
  committed: Promise<void>;
  settle(error?: unknown): void;
}

/**
 * Group commit for the REST writes. A write that finds no transaction open
 * begins one; the writes that arrive before the event loop turns (the other
 * requests of a replica's push window, read off their sockets together) join
 * it, each in its own savepoint, and one COMMIT ends them all when the turn
 * ends (setImmediate). In WAL mode a commit costs in proportion to the pages
 * it writes, and writes in one batch share most of theirs (the change log,
 * the revisions, index pages, the search index's structure), so a batch of
 * eight costs little more than one.
 *
 * Nothing is answered before its commit: the writer waits for `committed`,
 * and every other answer sent while a group is open waits for `pending()`
 * (a read may have seen the group's writes). If the commit fails, every
 * write in the group is rolled back and their answers become errors.
 *
 * One connection, one thread: work that must not run inside the group (a
 * schema change, closing the database) calls `flush()` first.
 */
export class CommitGroups {
  private open: Group | null = null;
  /** How many writes are pausing now, between two tries on a locked row (`run`). */
  private pausing = 0;
  /**
   * Told how many writes are pausing whenever that changes: their thread is
   * free meanwhile (an engine worker then takes other requests, http/engineWorkers.ts).
   */
  onPausing: (count: number) => void = () => undefined;
  private readonly begin;
  private readonly commit;
  private readonly rollback;

  constructor(private readonly db: Db) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
  }

  /**
   * Runs `write` in the open group (beginning one if none is), in a savepoint
   * of its own: if it throws, only its changes roll back. Resolves with its
   * result once the group is committed; rejects with CommitFailedError if it was not.
   * On PostgreSQL a write that found a row locked by another session is run
   * again a moment later, outside the hub's write lock, until lock_timeout.
   */
  async run<T>(write: () => T): Promise<T> {
    const since = performance.now();
    for (let attempt = 0; ; attempt++) {
      let result: T;
      try {
        result = this.join(write);
      } catch (err) {
        const delay = this.retryDelay(err, since, attempt);
        if (delay === null) throw err;
        // Its savepoint is rolled back: the rest of the group commits now, which lets the hub's write lock go
        // while this write pauses (postgres/database.ts), then it runs again in a group of its own.
        this.flush();
        this.onPausing(++this.pausing);
        try {
          await new Promise((resolve) => setTimeout(resolve, delay));
        } finally {
          this.onPausing(--this.pausing);
        }
        continue;
      }
      const group = this.open;
      if (group) await group.committed;
      return result;
    }
  }

  /** On PostgreSQL, a write of a group this commits that found a row locked is run again (`Db.lockRetryDelay`). */
  private retryDelay(error: unknown, since: number, attempt: number): number | null {
    if (this.open === null || !this.db.lockRetryDelay) return null;
    return this.db.lockRetryDelay(error, since, attempt);
  }

  /**
   * Runs `write` in the open group like `run`, but returns at once: for
   * writes that may become durable with the group's commit a moment later,
   * because one that is lost is redone (a replica's settled push: the change
   * stays in the outbox and the hub replays its answer by its key).
   */
  join<T>(write: () => T): T {
    // Inside someone else's transaction: theirs is the commit that counts.
    if (this.open === null && !this.db.inTransaction) this.start();
    return this.db.transaction(write)();
  }

  /** The open group's commit, or null when none is open. */
  pending(): Promise<void> | null {
    return this.open?.committed ?? null;
  }

  /** Commits the open group now. */
  flush(): void {
    const group = this.open;
    if (group === null) return;
    this.open = null;
    try {
      // An I/O error or a full disk can end a transaction on its own: then there is nothing left to commit.
      if (!this.db.inTransaction) throw new Error('The transaction ended before its commit.');
      this.commit.run();
      group.settle();
    } catch (err) {
      if (this.db.inTransaction) this.rollback.run();
      group.settle(new CommitFailedError(err));
    }
  }

  private start(): Group {
    this.begin.run();
    let settle!: (error?: unknown) => void;
    const committed = new Promise<void>((resolve, reject) => {
      settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    // Waiters attach later; a failed commit is not unhandled meanwhile.
    committed.catch(() => undefined);
    const group: Group = { committed, settle };
    this.open = group;
    atTurnEnd(() => {
      if (this.open === group) this.flush();
    });
    return group;
  }
}
