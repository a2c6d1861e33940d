import type { Db, Statement } from './database.js';

/**
 * Prepared statements keyed by their SQL text. List queries are assembled
 * from whitelisted fragments and updates name only the columns they change,
 * so the number of distinct texts is bounded; the cap only guards against a
 * pathological mix of filters.
 */
export class StatementCache {
  private readonly cache = new Map<string, Statement>();
  constructor(private readonly db: Db, private readonly max = 500) {}

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
