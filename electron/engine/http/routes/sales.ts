import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine.js';
import { registerCrud } from '../crud.js';
import { actorOf } from '../auth.js';
import { requireAdmin } from '../../auth/permissions.js';
import type { Actor } from '../../context.js';
import type { CrudService } from '../../resources/crudService.js';
import { HttpProblem } from '../problemReply.js';
import { dataOf, idParam, queryOf, rejectQuery, sendPage, sendResource } from '../reply.js';
import { repDayRoutes } from './repDay.js';

/** Sales resources under /v2 (registered inside the authenticated scope). */
export function salesRoutes(app: FastifyInstance, engine: Engine): void {
  app.get('/v2/accounts/self', async (request, reply) => {
    rejectQuery(queryOf(request));
    return sendResource(reply, 'account', engine.accounts.json());
  });
  // Extension: admins change the account's settings (name, currency, plan, add-ons, the commerce switch).
  app.put('/v2/accounts/self', async (request, reply) => {
    const actor = actorOf(request);
    requireAdmin(actor);
    engine.accounts.update(dataOf(request, 'account'), actor);
    return sendResource(reply, 'account', engine.accounts.json());
  });

  app.get('/v2/users/self', async (request, reply) => {
    rejectQuery(queryOf(request));
    return sendResource(reply, 'user', engine.users.json(actorOf(request).userId));
  });
  app.get('/v2/users', async (request, reply) => sendPage(request, reply, 'user', engine.users.list(queryOf(request))));
  app.get('/v2/users/:id', async (request, reply) => sendResource(reply, 'user', engine.users.json(idParam(request, 'user'))));

  registerCrud(app, '/v2/contacts', 'contact', engine.contacts, engine.ctx);
  registerCrud(app, '/v2/leads', 'lead', engine.leads, engine.ctx);
  registerCrud(app, '/v2/deals', 'deal', engine.deals, engine.ctx);
  // Listed read-only by the real service; admins manage them (extension).
  registerCrud(app, '/v2/pipelines', 'pipeline', adminWrites(engine.pipelines), engine.ctx);
  registerCrud(app, '/v2/stages', 'stage', adminWrites(engine.stages), engine.ctx);
  registerCrud(app, '/v2/tasks', 'task', engine.tasks, engine.ctx);
  // Task section counts and deal totals per stage (extensions for the Tasks and Home screens).
  repDayRoutes(app, engine);
  registerCrud(app, '/v2/notes', 'note', engine.notes, engine.ctx);
  registerCrud(app, '/v2/calls', 'call', engine.calls, engine.ctx);
  registerCrud(app, '/v2/call_outcomes', 'call_outcome', adminWrites(engine.callOutcomes), engine.ctx);
  registerCrud(app, '/v2/visit_outcomes', 'visit_outcome', adminWrites(engine.visitOutcomes), engine.ctx);
  registerCrud(app, '/v2/loss_reasons', 'loss_reason', adminWrites(engine.lossReasons), engine.ctx);
  registerCrud(app, '/v2/deal_unqualified_reasons', 'deal_unqualified_reason', adminWrites(engine.dealUnqualifiedReasons), engine.ctx);
  registerCrud(app, '/v2/lead_unqualified_reasons', 'lead_unqualified_reason', adminWrites(engine.leadUnqualifiedReasons), engine.ctx);
  // Sources, as the spec has lead sources, are for agents to manage.
  registerCrud(app, '/v2/lead_sources', 'source', engine.leadSources, engine.ctx);
  registerCrud(app, '/v2/deal_sources', 'source', engine.dealSources, engine.ctx);
  registerCrud(app, '/v2/sources', 'source', engine.sources, engine.ctx);
  // Account-wide cadence setup: everyone reads (to enroll), admins write.
  registerCrud(app, '/v2/email_templates', 'email_template', adminWrites(engine.emailTemplates), engine.ctx);
  registerCrud(app, '/v2/sequences', 'sequence', adminWrites(engine.sequences), engine.ctx);
  registerCrud(app, '/v2/tags', 'tag', engine.tags, engine.ctx);
  registerCrud(app, '/v2/collaborations', 'collaboration', engine.collaborations, engine.ctx);
  app.put('/v2/collaborations/:id', async () => {
    const message = 'A collaboration cannot be changed: delete it and create another.';
    throw new HttpProblem([{ resource: 'collaboration', field: '', code: 'method_not_allowed', message, details: message }], { Allow: 'GET, DELETE' });
  });
  // Read-only in the spec; visits can also be recorded, corrected and deleted (extensions), text messages only imported.
  registerCrud(app, '/v2/text_messages', 'text_message', readOnly(engine.textMessages), engine.ctx);
  registerCrud(app, '/v2/visits', 'visit', engine.visits, engine.ctx);
}

/** Everyone reads; only admins create, change and delete (call outcomes and other account-wide lists). */
function adminWrites(service: Required<CrudService>): CrudService {
  return {
    json: (id, actor) => service.json(id, actor),
    listPage: (query, actor) => service.listPage(query, actor),
    create: (data, actor: Actor) => (requireAdmin(actor), service.create(data, actor)),
    update: (id, data, actor: Actor) => (requireAdmin(actor), service.update(id, data, actor)),
    delete: (id, actor: Actor) => (requireAdmin(actor), service.delete(id, actor)),
  };
}

function readOnly(service: CrudService): CrudService {
  return { json: (id, actor) => service.json(id, actor), listPage: (query, actor) => service.listPage(query, actor) };
}
