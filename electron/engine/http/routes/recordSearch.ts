import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine.js';
import { collectionJson } from '../envelope.js';
import { invalidParam } from '../../problems.js';
import { JSON_TYPE, queryOf, requestUrl } from '../reply.js';
import { intParam, single, type RawQuery } from '../../resources/params.js';
import { RecordSearch } from '../../resources/recordSearch.js';
import { DEFAULT_SEARCH_RESULTS, MAX_SEARCH_RESULTS } from '../../../../shared/resources/recordSearch.js';

const PARAMETERS = new Set(['q', 'per_page']);

/**
 * `GET /v2/search?q=…&per_page=…` (extension): contacts, leads and deals by
 * name, email or phone for the command palette, best match first. One page
 * only: a palette shows the best few, never a second page.
 */
export function recordSearchRoutes(app: FastifyInstance, engine: Engine): void {
  const records = new RecordSearch(engine.ctx);
  app.get('/v2/search', async (request, reply) => {
    const query = queryOf(request);
    const { text, perPage } = searchParams(query);
    const items = records.search(text, perPage).map((result) => JSON.stringify(result));
    return reply.type(JSON_TYPE).send(collectionJson('search_result', items, { self: requestUrl(request).toString() }));
  });
}

function searchParams(query: RawQuery): { text: string; perPage: number } {
  const unknown = Object.keys(query).find((name) => !PARAMETERS.has(name));
  if (unknown !== undefined) throw invalidParam(unknown, 'unknown parameter');
  const text = single(query, 'q');
  if (text === undefined || text.trim() === '') throw invalidParam('q', 'required: the text to search for');
  const perPage = single(query, 'per_page');
  return { text, perPage: perPage === undefined || perPage === '' ? DEFAULT_SEARCH_RESULTS : intParam('per_page', perPage, 1, MAX_SEARCH_RESULTS) };
}
