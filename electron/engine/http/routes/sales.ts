import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine.js';
import { registerCrud } from '../crud.js';
import { actorOf } from '../auth.js';
import { idParam, queryOf, sendPage, sendResource } from '../reply.js';
import { invalidParam } from '../problem.js';

/** Sales resources under /v2 (registered inside the authenticated scope). */
export function salesRoutes(app: FastifyInstance, engine: Engine): void {
  app.get('/v2/accounts/self', async (request, reply) => {
    rejectQuery(queryOf(request));
    return sendResource(reply, 'account', engine.accounts.json());
  });

  app.get('/v2/users/self', async (request, reply) => {
    rejectQuery(queryOf(request));
    return sendResource(reply, 'user', engine.users.json(actorOf(request).userId));
  });
  app.get('/v2/users', async (request, reply) => sendPage(request, reply, 'user', engine.users.list(queryOf(request))));
  app.get('/v2/users/:id', async (request, reply) => sendResource(reply, 'user', engine.users.json(idParam(request, 'user'))));

  registerCrud(app, '/v2/contacts', 'contact', engine.contacts);
  registerCrud(app, '/v2/tasks', 'task', engine.tasks);
  registerCrud(app, '/v2/notes', 'note', engine.notes);
}

/** Endpoints that take no query parameters answer unknown ones with 400 (as the real service does). */
function rejectQuery(query: Record<string, unknown>): void {
  const name = Object.keys(query)[0];
  if (name !== undefined) throw invalidParam(name, 'unknown parameter');
}
