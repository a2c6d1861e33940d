import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine.js';
import { registerCrud } from '../crud.js';

/**
 * Smart lists: `GET/POST /v2/smart_lists`, `GET/PUT/DELETE
 * /v2/smart_lists/:id`. The generic REST routes serve them, so on a replica
 * each write is made locally and queued for the hub like any other record's.
 */
export function smartListRoutes(app: FastifyInstance, engine: Engine): void {
  registerCrud(app, '/v2/smart_lists', 'smart_list', engine.smartLists, engine.ctx);
}
