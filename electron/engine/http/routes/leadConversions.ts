import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine.js';
import { actorOf } from '../auth.js';
import { dataOf, JSON_TYPE, queryOf, requestUrl } from '../reply.js';
import type { CollectionLinks } from '../../../../shared/envelope.js';
import type { LeadConversion, LeadConversionLinks } from '../../../../shared/resources/lead.js';

/**
 * `/v2/lead_conversions`: list (newest first, by page or by cursor) and
 * create. Each conversion's `meta.links` points at the records it created.
 */
export function leadConversionRoutes(app: FastifyInstance, engine: Engine): void {
  app.get('/v2/lead_conversions', async (request, reply) => {
    const url = requestUrl(request);
    const page = engine.leadConversions.listPage(queryOf(request));
    const items = page.rows.map((json) => conversionEnvelope(json, url.origin));
    const links: CollectionLinks = { self: url.toString(), first_page: withParams(url, { cursor: null, page: '1' }) };
    if (page.nextCursor !== null) links.next_page = withParams(url, { cursor: page.nextCursor, page: null });
    const total = page.total === undefined ? '' : `,"total_count":${page.total}`;
    return reply.type(JSON_TYPE).send(`{"items":[${items.join(',')}],"meta":{"type":"collection","count":${items.length}${total},"links":${JSON.stringify(links)}}}`);
  });

  // Not replicable: a conversion creates several records at once, so a desktop replica leaves it to the hub.
  app.post('/v2/lead_conversions', async (request, reply) => {
    const data = dataOf(request, 'lead_conversion');
    // A lead merged into another since the caller saw it: its survivor is converted.
    engine.ctx.mergedIds.resolveReferences(data);
    const id = engine.leadConversions.create(data, actorOf(request));
    return reply.type(JSON_TYPE).send(conversionEnvelope(engine.leadConversions.json(id), requestUrl(request).origin));
  });
}

/** A conversion's single-resource envelope, with the URLs of what it created in `meta.links`. */
function conversionEnvelope(json: string, origin: string): string {
  const conversion = JSON.parse(json) as LeadConversion;
  const at = (path: string, id: number | null) => (id === null ? null : `${origin}/v2/${path}/${id}`);
  const links: LeadConversionLinks = {
    individual: at('contacts', conversion.individual_id),
    organization: at('contacts', conversion.organization_id),
    deal: at('deals', conversion.deal_id),
  };
  return `{"data":${json},"meta":{"type":"lead_conversion","links":${JSON.stringify(links)}}}`;
}

/** The URL with some query parameters set (or removed, when null). */
function withParams(url: URL, params: Record<string, string | null>): string {
  const copy = new URL(url);
  for (const [name, value] of Object.entries(params)) {
    if (value === null) copy.searchParams.delete(name);
    else copy.searchParams.set(name, value);
  }
  return copy.toString();
}
