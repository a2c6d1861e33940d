import { describe, expect, it } from 'vitest';
import { tsqueryOf } from '../../electron/engine/db/postgres/tsquery.js';

/** The engine's FTS5 search expressions as PostgreSQL's tsqueries (a PostgreSQL hub's search; the cluster tests run them). */
describe('search expressions as tsqueries', () => {
  it('requires every typed word as a prefix', () => {
    expect(tsqueryOf('"zoe"* "lis"*')).toBe("('zoe':* & 'lis':*)");
    expect(tsqueryOf('"quarter"*')).toBe("'quarter':*");
  });

  it('puts a name filter on weight A and a start of name as a phrase', () => {
    expect(tsqueryOf('name : ("ann"* "smi"*)')).toBe("('ann':*A & 'smi':*A)");
    expect(tsqueryOf('name : ^"ann smi"*')).toBe("'ann':A <-> 'smi':*A");
  });

  it('keeps OR, lowers case and drops accents as the index does', () => {
    expect(tsqueryOf('("555"* "12"*) OR "55512"*')).toBe("(('555':* & '12':*) | '55512':*)");
    expect(tsqueryOf('"Élodie"*')).toBe("'elodie':*");
  });

  it('refuses what the engine never writes', () => {
    expect(() => tsqueryOf('name :')).toThrow();
    expect(() => tsqueryOf('("a"*')).toThrow(/unclosed/);
  });
});
