import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine.js';
import { actorOf } from '../auth.js';
import { queryOf, sendResource } from '../reply.js';
import { DealSummary } from '../../resources/dealSummary.js';

/**
 * Extensions behind the rep's day, which real clients never need:
 * the counts of the Tasks screen's sections and the pipeline's totals per
 * stage. Plain reads of the local engine, so a desktop replica answers them too.
 */
export function repDayRoutes(app: FastifyInstance, engine: Engine): void {
  app.get('/v2/tasks/counts', async (request, reply) => sendResource(reply, 'task_counts', engine.tasks.counts(queryOf(request), actorOf(request))));
  const deals = new DealSummary(engine.ctx, () => engine.deals.listFor());
  app.get('/v2/deals/summary', async (request, reply) => sendResource(reply, 'deal_summary', deals.json(queryOf(request), actorOf(request))));
}
