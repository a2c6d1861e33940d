import type { Db, Statement } from './database.js';

/**
 * Prepared statements keyed by their SQL text. List queries are assembled
 * from whitelisted fragments and updates name only the columns they change,
 * so the number of distinct texts is bounded; the cap only guards against a
 * pathological mix of filters.
 */
export class StatementCache {
  private readonly cache = new Map<string, Statement>();
  /** Per query text, whether SQLite's plan for it sorts the rows (sortsRows); as bounded as the statements. */
  private readonly sorting = new Map<string, boolean>();
  constructor(private readonly db: Db, private readonly max = 500) {}

  get dialect(): Db['dialect'] {
    return this.db.dialect;
  }

  /**
   * Whether SQLite's plan for the query sorts its rows (no index gives its ORDER BY); `params` as the query
   * takes them (the plan does not depend on their values, so it is kept by text). SQLite only.
   */
  sortsRows(sql: string, params: unknown[]): boolean {
    let sorts = this.sorting.get(sql);
    if (sorts === undefined) {
      const plan = this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
      sorts = plan.some((step) => /TEMP B-TREE FOR (?:RIGHT PART OF )?ORDER BY/.test(step.detail));
      if (this.sorting.size >= this.max) this.sorting.delete(this.sorting.keys().next().value as string);
      this.sorting.set(sql, sorts);
    }
    return sorts;
  }

  get(sql: string): Statement {
    let stmt = this.cache.get(sql);
    if (stmt) {
      // Least recently used goes first: a busy statement is never the one evicted.
      this.cache.delete(sql);
    } else {
      if (this.cache.size >= this.max) this.cache.delete(this.cache.keys().next().value as string);
      stmt = this.db.prepare(sql);
    }
    this.cache.set(sql, stmt);
    return stmt;
  }
}
