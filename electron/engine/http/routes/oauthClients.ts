import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine.js';
import { actorOf } from '../auth.js';
import { requireAdmin } from '../../auth/permissions.js';
import { dataOf, queryOf, rejectQuery, sendPage, sendResource } from '../reply.js';
import { FieldErrors } from '../../problems.js';
import { HUB_ONLY_READ } from './replica.js';

const WRITABLE = new Set(['name', 'redirect_uri', 'public']);

/**
 * Registered OAuth applications, for admins (an Outpost extension the
 * settings screen uses; `outpost clients …` does the same from the shell).
 * The secret is in the create answer only.
 */
export function oauthClientRoutes(app: FastifyInstance, engine: Engine): void {
  const admin = (request: FastifyRequest) => requireAdmin(actorOf(request));

  // A replica copies no OAuth applications: the hub's own page reads the hub's (HUB_ONLY_READ).
  app.get('/v2/oauth_clients', { config: HUB_ONLY_READ }, async (request, reply) => {
    admin(request);
    rejectQuery(queryOf(request));
    const rows = engine.clients.listJson();
    return sendPage(request, reply, 'oauth_client', { rows, page: 1, perPage: Math.max(rows.length, 1), hasMore: false });
  });

  app.get('/v2/oauth_clients/:client_id', { config: HUB_ONLY_READ }, async (request, reply) => {
    admin(request);
    return sendResource(reply, 'oauth_client', engine.clients.json((request.params as { client_id: string }).client_id));
  });

  app.post('/v2/oauth_clients', async (request, reply) => {
    admin(request);
    const data = dataOf(request, 'oauth_client');
    const errors = new FieldErrors('oauth_client');
    for (const name of Object.keys(data)) if (!WRITABLE.has(name)) errors.add(`/${name}`, 'unknown', `${name} is not an attribute of an OAuth client.`);
    if (data.public !== undefined && typeof data.public !== 'boolean') errors.add('/public', 'invalid_type', 'public must be true or false.');
    errors.throwIfAny();
    const registered = engine.clients.register({ name: data.name as string, redirect_uri: data.redirect_uri as string, public: data.public === true });
    const json = JSON.parse(engine.clients.json(registered.client_id)) as object;
    return sendResource(reply, 'oauth_client', JSON.stringify({ ...json, client_secret: registered.client_secret }));
  });

  app.delete('/v2/oauth_clients/:client_id', async (request, reply) => {
    admin(request);
    engine.clients.remove((request.params as { client_id: string }).client_id);
    return reply.code(204).send();
  });
}
