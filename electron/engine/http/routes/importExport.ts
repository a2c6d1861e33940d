import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine.js';
import type { Actor } from '../../context.js';
import { actorOf } from '../auth.js';
import { COMMERCE } from '../commerce.js';
import { REPLICABLE } from '../crud.js';
import { invalidParam, problem } from '../../problems.js';
import { dataOf, queryOf, rejectQuery, requestUrl, sendResource } from '../reply.js';
import { LOCAL_TO_REPLICA } from './replica.js';
import { isoSeconds } from '../../clock.js';
import { listAll, type Lister } from '../../importExport/listAll.js';
import { recordsToCsv } from '../../importExport/csvExport.js';
import { columnLabel } from '../../importExport/columnLabels.js';
import { importCsv, previewCsv } from '../../importExport/csvImport.js';
import { contactsToVcard, importVcard, previewVcard } from '../../importExport/vcard.js';
import { tasksToCalendar } from '../../importExport/icalendar.js';
import { CalendarFeeds } from '../../importExport/calendarFeeds.js';
import { IMPORT_BODY_LIMIT, MAX_FILE_BYTES } from '../../importExport/recordImport.js';
import type { CustomFieldResourceType } from '../../../../shared/resources/customField.js';
import type { Contact } from '../../../../shared/resources/contact.js';
import type { Task } from '../../../../shared/resources/task.js';

/** A list view the UI shows, exported as CSV at `/v2/<path>/export.csv` through its own list. */
interface CsvExport {
  path: string;
  lister: (engine: Engine) => Lister;
  /** Resources with custom fields: each is a column even where no record has a value. */
  customFields?: CustomFieldResourceType;
  config?: Record<string, unknown>;
}

const CSV_EXPORTS: CsvExport[] = [
  { path: 'contacts', lister: (e) => e.contacts, customFields: 'contact' },
  { path: 'leads', lister: (e) => e.leads, customFields: 'lead' },
  { path: 'deals', lister: (e) => e.deals, customFields: 'deal' },
  { path: 'tasks', lister: (e) => e.tasks },
  { path: 'notes', lister: (e) => e.notes },
  { path: 'products', lister: (e) => e.products, config: COMMERCE },
  { path: 'orders', lister: (e) => e.orders, config: COMMERCE },
  { path: 'sequences', lister: (e) => e.sequences },
  { path: 'sequence_enrollments', lister: (e) => e.enrollments },
];

/** Completed tasks stay in a feed this long after completion. */
const FEED_COMPLETED_DAYS = 30;

/**
 * Import and export (Outpost extensions), inside the authenticated
 * /v2 scope: CSV imports of contacts and leads with a preview, vCard import
 * and export of contacts, CSV export of every list view, tasks as iCalendar,
 * and the user's calendar feed settings.
 */
export function importExportRoutes(app: FastifyInstance, engine: Engine): void {
  importRoutes(app, engine);
  for (const csv of CSV_EXPORTS) {
    app.get(`/v2/${csv.path}/export.csv`, { config: csv.config ?? {} }, async (request, reply) => {
      const actor = actorOf(request);
      const lister = csv.lister(engine);
      const { headers, ...query } = queryOf(request);
      const header = headerNaming(headers);
      const records = listAll(engine.ctx, lister, query, actor);
      // With nothing to export, one record of the unfiltered list still gives the header row.
      const sample = records.length === 0 ? lister.listPage({ per_page: '1' }, actor).rows[0] : undefined;
      const names = csv.customFields ? [...engine.customFields.definitions(csv.customFields).keys()] : [];
      return sendFile(reply, 'text/csv; charset=utf-8', `${csv.path}.csv`, recordsToCsv(records, names, sample, header));
    });
  }
  app.get('/v2/contacts/export.vcf', async (request, reply) => {
    const contacts = listAll(engine.ctx, engine.contacts, queryOf(request), actorOf(request)).map((r) => JSON.parse(r) as Contact);
    const names = new Map(contacts.filter((c) => c.is_organization).map((c) => [c.id, c.name ?? '']));
    const organizationName = engine.ctx.statements.get('SELECT name FROM contacts WHERE id = ? AND is_organization = 1').pluck();
    const nameOf = (id: number) => names.get(id) ?? (organizationName.get(id) as string | undefined);
    return sendFile(reply, 'text/vcard; charset=utf-8', 'contacts.vcf', contactsToVcard(contacts, nameOf, request.hostname));
  });
  app.get('/v2/tasks/export.ics', async (request, reply) => {
    const tasks = listAll(engine.ctx, engine.tasks, queryOf(request), actorOf(request)).map((r) => JSON.parse(r) as Task);
    return sendFile(reply, 'text/calendar; charset=utf-8', 'tasks.ics', tasksToCalendar(tasks, { host: request.hostname, name: 'Outpost tasks' }));
  });
  calendarFeedSettings(app, engine);
}

/** `headers=labels` (what the app asks for people): columns named "Last name", "City"; `fields` or none: `last_name`, `address.city`. */
function headerNaming(raw: string | string[] | undefined): ((path: string[]) => string) | undefined {
  if (raw === undefined || raw === 'fields') return undefined;
  if (raw === 'labels') return columnLabel;
  throw invalidParam('headers', 'must be fields or labels');
}

function importRoutes(app: FastifyInstance, engine: Engine): void {
  // The file travels inside the JSON body: a larger body limit than other writes, with its own message.
  const file = (config: Record<string, unknown>) => ({ bodyLimit: IMPORT_BODY_LIMIT, errorHandler: tooLargeFile, config });
  // A preview writes nothing that stays: a desktop replica runs it locally.
  const preview = file({ ...LOCAL_TO_REPLICA });
  // Each imported record is created as POST would, so a replica queues each for its hub.
  const write = file({ ...REPLICABLE });
  const run = (handler: (engine: Engine, data: Record<string, unknown>, actor: Actor) => Record<string, unknown>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      rejectQuery(queryOf(request));
      return sendResource(reply, 'import', JSON.stringify(handler(engine, dataOf(request, 'import'), actorOf(request))));
    };
  app.post('/v2/imports/preview', preview, run(previewCsv));
  app.post('/v2/imports', write, run(importCsv));
  app.post('/v2/contacts/import_vcard/preview', preview, run(previewVcard));
  app.post('/v2/contacts/import_vcard', write, run(importVcard));
}

function tooLargeFile(error: FastifyError): never {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    throw problem('request_too_large', `The request body is larger than ${IMPORT_BODY_LIMIT} bytes: a file may have at most ${MAX_FILE_BYTES / 1024 / 1024} MB.`);
  }
  throw error;
}

/** The user's calendar feed: on (POST, which also replaces the secret), its state (GET), off (DELETE). Hub only. */
function calendarFeedSettings(app: FastifyInstance, engine: Engine): void {
  const feeds = new CalendarFeeds(engine.ctx);
  const base = '/v2/users/self/calendar_feed';
  const hubOnly = () => {
    // The feed is served by the hub: a replica's own URL would work only while the laptop is on.
    if (engine.ctx.replica) throw problem('conflict', 'The calendar feed is set up on the hub, not on a device copy: open the hub in a browser to set it up.');
  };
  app.get(base, async (request, reply) => {
    rejectQuery(queryOf(request));
    hubOnly();
    return sendResource(reply, 'calendar_feed', JSON.stringify(feeds.status(actorOf(request).userId)));
  });
  app.post(base, async (request, reply) => {
    rejectQuery(queryOf(request));
    hubOnly();
    const { secret, createdAt } = feeds.enable(actorOf(request).userId);
    const url = `${requestUrl(request).origin}/calendar/${secret}.ics`;
    return sendResource(reply, 'calendar_feed', JSON.stringify({ url, created_at: createdAt }), 201);
  });
  app.delete(base, async (request, reply) => {
    rejectQuery(queryOf(request));
    hubOnly();
    feeds.disable(actorOf(request).userId);
    return reply.code(204).send();
  });
}

/**
 * `GET /calendar/<secret>.ics`, outside /v2: calendar apps cannot send a
 * token, so the secret is the permission. The user's tasks: open ones, and
 * those completed in the last 30 days. Unknown secrets and deactivated
 * users' feeds are 404.
 */
export function calendarFeedRoutes(app: FastifyInstance, engine: Engine): void {
  const feeds = new CalendarFeeds(engine.ctx);
  app.get('/calendar/:secret.ics', async (request, reply) => {
    const { secret } = request.params as { secret: string };
    const userId = feeds.userOf(secret);
    const user = userId === undefined ? undefined : engine.users.find(userId);
    if (!user) throw problem('not_found', 'There is no calendar feed at this address (it may have been turned off or replaced).', '/secret', 'calendar_feed');
    const actor: Actor = { userId: user.id, role: user.role, scopes: new Set(['read']) };
    const since = isoSeconds(new Date(engine.clock.now().getTime() - FEED_COMPLETED_DAYS * 24 * 3600 * 1000));
    const tasks = listAll(engine.ctx, engine.tasks, { owner_id: String(user.id) }, actor)
      .map((r) => JSON.parse(r) as Task)
      .filter((t) => !t.completed || (t.completed_at !== null && t.completed_at >= since));
    const body = tasksToCalendar(tasks, { host: request.hostname, name: `Outpost tasks (${user.name})` });
    return sendFile(reply, 'text/calendar; charset=utf-8', 'tasks.ics', body, 'private, max-age=300');
  });
}

function sendFile(reply: FastifyReply, type: string, filename: string, body: string, cache = 'private, no-store'): FastifyReply {
  return reply
    .type(type)
    .header('Content-Disposition', `attachment; filename="${filename}"`)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', cache)
    .send(body);
}
