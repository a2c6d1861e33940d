import type { Actor, EngineContext } from '../context.js';
import type { CrudService } from '../resources/crudService.js';
import type { RawQuery } from '../resources/params.js';

/** What an export reads: the resource's own list (its filters, sorts and who sees what). */
export type Lister = Pick<CrudService, 'listPage'>;

/** The largest page every list allows. */
const PAGE_SIZE = 100;

/**
 * Every record the list answers for these parameters, in its order, read
 * page by page through the list itself (so every filter and sort name is
 * checked as GET checks it, unknown ones are a 400, and visibility rules
 * apply), inside one read transaction so the pages are one snapshot.
 * `page` and `per_page` are ignored: an export has every matching record.
 */
export function listAll(ctx: EngineContext, lister: Lister, query: RawQuery, actor: Actor): string[] {
  const base: RawQuery = Object.fromEntries(Object.entries(query).filter(([name]) => name !== 'page' && name !== 'per_page'));
  return ctx.db.transaction(() => {
    const rows: string[] = [];
    for (let page = 1; ; page += 1) {
      const answer = lister.listPage({ ...base, page: String(page), per_page: String(PAGE_SIZE) }, actor);
      rows.push(...answer.rows);
      if (!answer.hasMore) return rows;
    }
  })();
}
