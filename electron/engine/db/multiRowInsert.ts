import type { Db, Statement } from './database.js';

/**
 * An INSERT that writes rows several at a time: rows added are held until
 * `perStatement` of them fill one statement, and `flush` writes the rest one
 * by one. Each statement's run is so paid once for several rows (a replica's
 * first sync writes a million contacts and as many tag links). `sql(rows)` is
 * the INSERT with that many value tuples; the one for many rows is prepared
 * when first needed. The rows held are written only by a later `add` or by
 * `flush`: whoever adds must flush before anything reads the table, or
 * `discard` them when their transaction failed.
 */
export class MultiRowInsert {
  private readonly one: Statement;
  private many: Statement | null = null;
  /** Values of the rows held, one row after another. */
  private held: unknown[] = [];

  constructor(private readonly db: Db, private readonly sql: (rows: number) => string, private readonly width: number, private readonly perStatement: number) {
    this.one = db.prepare(sql(1));
  }

  /** Adds a row (`width` values), written with the next ones. */
  add(values: unknown[]): void {
    for (const value of values) this.held.push(value);
    if (this.held.length < this.width * this.perStatement) return;
    this.many ??= this.db.prepare(this.sql(this.perStatement));
    const rows = this.held;
    this.held = [];
    this.many.run(rows);
  }

  /** Writes the rows held. */
  flush(): void {
    const held = this.held;
    this.held = [];
    for (let at = 0; at < held.length; at += this.width) this.one.run(held.slice(at, at + this.width));
  }

  /** Drops the rows held (the transaction they belonged to failed). */
  discard(): void {
    this.held = [];
  }

  /** Writes one row now. */
  run(values: unknown[]): void {
    this.one.run(values);
  }

  /** Writes these rows (their values one row after another) and any held. */
  writeAll(values: unknown[]): void {
    for (let at = 0; at < values.length; at += this.width) this.add(values.slice(at, at + this.width));
    this.flush();
  }
}

/** `rows` value tuples of `width` parameters each, for an INSERT's VALUES. */
export const valueTuples = (rows: number, width: number): string => Array(rows).fill(`(${Array(width).fill('?').join(', ')})`).join(', ');
