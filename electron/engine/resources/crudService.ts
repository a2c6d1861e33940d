import type { Actor } from '../context.js';
import type { ListPage } from './listing.js';
import type { RawQuery } from './params.js';

/**
 * What a resource offers for the regular REST shape of the spec (list, create,
 * retrieve, update, delete): records as their API JSON text, lists as pages.
 * http/crud.ts serves it; exports read every page of it (importExport/listAll.ts).
 */
export interface CrudService {
  json(id: number, actor: Actor): string;
  listPage(query: RawQuery, actor: Actor): ListPage;
  create?(data: Record<string, unknown>, actor: Actor): number;
  update?(id: number, data: Record<string, unknown>, actor: Actor): void;
  delete?(id: number, actor: Actor): void;
}
