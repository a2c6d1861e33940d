import { makeFolder, pathIn } from './platform/files.js';
import { openDatabase, sqliteOf, type Db } from './db/database.js';
import { SqliteAuthWatch } from './db/authChangeWatch.js';
import { DATABASE_FILE } from './db/dataFolder.js';
import type { NoticeListener } from './db/postgres/noticeListener.js';
import { listenToAuthChanges, openHubPostgres, smtpMailer } from './hubOnly.js';
import { StatementCache } from './db/statements.js';
import { CommitGroups } from './db/commitGroups.js';
import { systemClock, type Clock } from './clock.js';
import { ChangeLog } from './changes/changeLog.js';
import type { EngineContext } from './context.js';
import { Users } from './resources/users.js';
import { Accounts } from './resources/account.js';
import { Contacts } from './resources/contacts.js';
import { CustomFields, CUSTOM_FIELD_SYNC } from './resources/customFields.js';
import { Tagging, Tags } from './resources/tags.js';
import { Tokens } from './auth/tokens.js';
import { OAuthClients } from './auth/clients.js';
import { CsrfTokens } from './auth/csrf.js';
import { SignIn } from './auth/signIn.js';
import { Dependents } from './dependents.js';
import { Tasks } from './resources/tasks.js';
import { Notes } from './resources/notes.js';
import { Calls } from './resources/calls.js';
import { TextMessages } from './resources/textMessages.js';
import { Visits } from './resources/visits.js';
import { Documents } from './resources/documents.js';
import { Leads, LEAD_SYNC } from './resources/leads.js';
import { Merges } from './resources/merging.js';
import { Duplicates } from './resources/duplicates.js';
import { MergedIds } from './changes/mergedIds.js';
import { LeadConversions, LEAD_CONVERSION_SYNC } from './resources/leadConversions.js';
import {
  NamedList, CALL_OUTCOMES, VISIT_OUTCOMES, LOSS_REASONS, DEAL_UNQUALIFIED_REASONS, LEAD_UNQUALIFIED_REASONS, LEAD_SOURCES, DEAL_SOURCES, ALL_SOURCES,
} from './resources/namedLists.js';
import { Collaborations, COLLABORATION_SYNC } from './resources/collaborations.js';
import { Pipelines, PIPELINE_SYNC } from './resources/pipelines.js';
import { Stages, STAGE_SYNC } from './resources/stages.js';
import { Deals, DEAL_SYNC } from './resources/deals.js';
import { AssociatedContacts, ASSOCIATED_CONTACT_SYNC } from './resources/associatedContacts.js';
import { Products, PRODUCT_SYNC } from './resources/products.js';
import { Orders, ORDER_SYNC } from './resources/orders.js';
import { LineItems, LINE_ITEM_SYNC } from './resources/lineItems.js';
import { EmailTemplates, EMAIL_TEMPLATE_SYNC } from './resources/emailTemplates.js';
import { Sequences, SEQUENCE_SYNC } from './resources/sequences.js';
import { Enrollments, ENROLLMENT_SYNC } from './resources/enrollments.js';
import { Scheduler, schedulerIntervalFromEnv } from './sequences/scheduler.js';
import { Acknowledgements } from './sync/acks.js';
import { CustomObjectFields } from './customObjects/fields.js';
import { CustomObjectRecords } from './customObjects/records.js';
import { Outbox } from './changes/outbox.js';
import { SyncConflicts } from './changes/conflicts.js';
import { WrittenAt } from './writtenAt.js';
import { SyncSessions } from './sync/sessions.js';
import { SyncSources } from './sync/sources.js';
import { ACCOUNT_SYNC } from './resources/account.js';
import { ExchangeRates, EXCHANGE_RATE_SYNC } from './resources/exchangeRates.js';
import { SmartLists, SMART_LIST_SYNC } from './resources/smartLists.js';
import { USER_SYNC } from './resources/users.js';
import { TAG_SYNC } from './resources/tags.js';
import { TASK_SYNC } from './resources/tasks.js';
import { NOTE_SYNC } from './resources/notes.js';
import { CALL_SYNC } from './resources/calls.js';
import { TEXT_MESSAGE_SYNC } from './resources/textMessages.js';
import { VISIT_SYNC } from './resources/visits.js';

export interface EngineOptions {
  /** Folder holding the database (and documents' files); created if missing. */
  dataDir: string;
  /**
   * A hub on PostgreSQL (`postgres://…`) instead of the SQLite file in dataDir:
   * several hub nodes may share it (docs/design/postgres-hub.md). Not for a replica.
   */
  databaseUrl?: string;
  clock?: Clock;
  nativeBinding?: string;
  /**
   * The PostgreSQL database is known to be at this version's schema (a hub node's engine workers, opened after
   * the node's own engine migrated it): only the tables' keys are read.
   */
  databasePrepared?: boolean;
  /** A desktop replica of a hub (replica/): temporary ids for local creates, an outbox of local changes. */
  replica?: boolean;
  /**
   * How often a hub runs due sequence steps (ms). Default: every 15 s with the
   * system clock (or OUTPOST_SCHEDULER_INTERVAL_MS); off with an injected clock (tests call `scheduler.tick()`).
   */
  schedulerIntervalMs?: number;
  /**
   * false: no sequence scheduler (CLI commands open the hub's database next
   * to a running hub, whose scheduler may be sending: they must not touch it).
   */
  runSequences?: boolean;
}

/** The CRM engine: one database, the services over it. No HTTP and no Electron in here. */
export interface Engine {
  ctx: EngineContext;
  db: Db;
  clock: Clock;
  users: Users;
  accounts: Accounts;
  exchangeRates: ExchangeRates;
  smartLists: SmartLists;
  contacts: Contacts;
  customFields: CustomFields;
  tokens: Tokens;
  clients: OAuthClients;
  csrf: CsrfTokens;
  signIn: SignIn;
  tasks: Tasks;
  notes: Notes;
  calls: Calls;
  callOutcomes: NamedList;
  visitOutcomes: NamedList;
  lossReasons: NamedList;
  dealUnqualifiedReasons: NamedList;
  leadUnqualifiedReasons: NamedList;
  leadSources: NamedList;
  dealSources: NamedList;
  sources: NamedList;
  tags: Tags;
  collaborations: Collaborations;
  textMessages: TextMessages;
  visits: Visits;
  documents: Documents;
  leads: Leads;
  /** Merging two contacts or two leads. */
  merges: Merges;
  /** Likely duplicate contacts and leads. */
  duplicates: Duplicates;
  leadConversions: LeadConversions;
  pipelines: Pipelines;
  stages: Stages;
  deals: Deals;
  associatedContacts: AssociatedContacts;
  products: Products;
  orders: Orders;
  lineItems: LineItems;
  emailTemplates: EmailTemplates;
  sequences: Sequences;
  enrollments: Enrollments;
  /** Field definitions and records of custom objects (/api/v2; hub-only data, not in the change log). */
  customObjectFields: CustomObjectFields;
  customObjectRecords: CustomObjectRecords;
  /** Runs sequence steps; only on a hub (a replica's enrollments are run by its hub). */
  scheduler: Scheduler | null;
  /** On PostgreSQL: the notices that tokens or permissions changed, which keep the node's token cache right. */
  authChanges?: NoticeListener;
  sync: SyncSessions;
  close(): void;
}

export function openEngine(options: EngineOptions): Engine {
  makeFolder(options.dataDir);
  const clock = options.clock ?? systemClock;
  const db = openEngineDatabase(options, clock);
  const ctx: EngineContext = { db, clock, statements: new StatementCache(db), commits: new CommitGroups(db), changes: new ChangeLog(db, clock), dependents: new Dependents(), mergedIds: new MergedIds(db, clock), writtenAt: new WrittenAt() };
  if (options.replica) ctx.replica = { outbox: new Outbox(db, clock), conflicts: new SyncConflicts(db, clock), records: new Map(), nativeBinding: options.nativeBinding };
  const users = new Users(ctx);
  const customFields = new CustomFields(ctx);
  const callOutcomes = new NamedList(ctx, CALL_OUTCOMES);
  const visitOutcomes = new NamedList(ctx, VISIT_OUTCOMES);
  const lossReasons = new NamedList(ctx, LOSS_REASONS);
  const dealUnqualifiedReasons = new NamedList(ctx, DEAL_UNQUALIFIED_REASONS);
  const leadUnqualifiedReasons = new NamedList(ctx, LEAD_UNQUALIFIED_REASONS);
  const sources = new NamedList(ctx, ALL_SOURCES);
  const tagging = new Tagging(ctx);
  const documents = new Documents(ctx, options.dataDir);
  const contacts = new Contacts(ctx, users, customFields, tagging);
  const leads = new Leads(ctx, users, customFields, tagging);
  const pipelines = new Pipelines(ctx);
  const stages = new Stages(ctx, pipelines);
  const deals = new Deals(ctx, users, contacts, stages, customFields, tagging);
  const products = new Products(ctx);
  const orders = new Orders(ctx, deals);
  const emailTemplates = new EmailTemplates(ctx);
  const exchangeRates = new ExchangeRates(ctx);
  const accounts = new Accounts(ctx, exchangeRates);
  const customObjectFields = new CustomObjectFields(ctx, accounts);
  // Every type a device can read; the change log's other types (none today) would be reported as failed objects.
  const syncSources = new SyncSources(db, [
    ACCOUNT_SYNC, USER_SYNC, CUSTOM_FIELD_SYNC, contacts.syncSource, TAG_SYNC, TASK_SYNC, NOTE_SYNC, CALL_SYNC, callOutcomes.syncSource,
    visitOutcomes.syncSource, TEXT_MESSAGE_SYNC, VISIT_SYNC, documents.syncSource, lossReasons.syncSource,
    dealUnqualifiedReasons.syncSource, leadUnqualifiedReasons.syncSource, sources.syncSource, COLLABORATION_SYNC,
    LEAD_SYNC, LEAD_CONVERSION_SYNC, PIPELINE_SYNC, STAGE_SYNC, DEAL_SYNC, ASSOCIATED_CONTACT_SYNC,
    PRODUCT_SYNC, ORDER_SYNC, LINE_ITEM_SYNC, EMAIL_TEMPLATE_SYNC, SEQUENCE_SYNC, ENROLLMENT_SYNC,
    EXCHANGE_RATE_SYNC, SMART_LIST_SYNC,
  ]);
  const sync = new SyncSessions(ctx, syncSources, new Acknowledgements(db));
  const engine: Engine = {
    ctx,
    db,
    clock,
    users,
    accounts,
    exchangeRates,
    // The lists a smart list is checked against are the services' own (the same checks as their endpoints).
    smartLists: new SmartLists(ctx, (type, actor) => (type === 'task' ? engine.tasks.listFor(actor) : { contact: contacts, lead: engine.leads, deal: deals }[type].listFor())),
    customFields,
    contacts,
    tokens: new Tokens(ctx),
    clients: new OAuthClients(ctx),
    csrf: new CsrfTokens(ctx),
    signIn: new SignIn(ctx, (email) => users.findByEmail(email)),
    tasks: new Tasks(ctx, users),
    notes: new Notes(ctx, tagging),
    calls: new Calls(ctx, users, callOutcomes),
    callOutcomes,
    visitOutcomes,
    lossReasons,
    dealUnqualifiedReasons,
    leadUnqualifiedReasons,
    leadSources: new NamedList(ctx, LEAD_SOURCES),
    dealSources: new NamedList(ctx, DEAL_SOURCES),
    sources,
    tags: new Tags(ctx),
    collaborations: new Collaborations(ctx, users),
    textMessages: new TextMessages(ctx, users),
    visits: new Visits(ctx, visitOutcomes),
    documents,
    leads,
    merges: new Merges(ctx, { contact: contacts, lead: leads }),
    duplicates: new Duplicates(ctx),
    // Services reached lazily: a conversion creates contacts and deals through them.
    leadConversions: new LeadConversions(ctx, () => engine),
    pipelines,
    stages,
    deals,
    associatedContacts: new AssociatedContacts(ctx, deals, contacts),
    products,
    orders,
    lineItems: new LineItems(ctx, orders, products),
    emailTemplates,
    sequences: new Sequences(ctx, emailTemplates),
    enrollments: new Enrollments(ctx, users, accounts, () => engine.sequences),
    customObjectFields,
    // Registers with ctx.dependents: a deleted contact, deal or lead leaves the lookups naming it empty.
    customObjectRecords: new CustomObjectRecords(ctx, customObjectFields),
    scheduler: null,
    sync,
    close: () => {
      void engine.authChanges?.close();
      engine.scheduler?.stop();
      engine.leadConversions.stop();
      ctx.commits.flush();
      sync.flush();
      db.close();
    },
  };
  if (options.databaseUrl !== undefined) cacheTokensWhileHeard(engine, options.databaseUrl);
  else cacheTokensWhileUnchanged(engine);
  engine.accounts.ensure();
  engine.clients.ensureFirstParty();
  if (!options.replica && options.runSequences !== false) engine.scheduler = startScheduler(engine, options);
  return engine;
}

function openEngineDatabase(options: EngineOptions, clock: Clock): Db {
  if (options.databaseUrl !== undefined) {
    if (options.replica) throw new Error('A desktop replica keeps its data in SQLite, not PostgreSQL.');
    return openHubPostgres(options.databaseUrl, clock, options.databasePrepared === true);
  }
  return openDatabase(pathIn(options.dataDir, DATABASE_FILE), {
    nativeBinding: options.nativeBinding, clock, foreignKeys: !options.replica,
    // A desktop replica shares the rep's machine: a smaller page cache keeps it well under 200 MB.
    cacheMiB: options.replica ? 16 : 64,
    // A replica's first sync writes the whole hub at once: bigger pages mean fewer pages to write, log and
    // checkpoint, and fewer to sort into its indexes (measured at 300 000 records: about a tenth less time).
    pageSize: options.replica ? 16384 : undefined,
  });
}

/** A PostgreSQL node keeps tokens in memory while it hears every change to them, from any node. */
function cacheTokensWhileHeard(engine: Engine, url: string): void {
  engine.authChanges = listenToAuthChanges(url, () => engine.tokens.forget());
  engine.tokens.cacheWhile(engine.authChanges);
}

/** A SQLite engine keeps token rows in memory until its own connection changes them or any other connection commits. */
function cacheTokensWhileUnchanged(engine: Engine): void {
  engine.tokens.cacheWhile(new SqliteAuthWatch(sqliteOf(engine.db), () => engine.tokens.forget()));
}

/** The hub's sequence scheduler, ticking on a timer unless the clock is injected. */
function startScheduler(engine: Engine, options: EngineOptions): Scheduler {
  const scheduler = new Scheduler(engine.ctx, {
    enrollments: engine.enrollments,
    accounts: engine.accounts,
    templates: () => engine.emailTemplates,
    createTask: (data, actor) => engine.tasks.create(data, actor),
    recordJson: (type, id) => {
      const found = engine.ctx.statements.get(`SELECT 1 FROM ${type === 'user' ? 'users' : `${type}s`} WHERE id = ?`).get(id);
      if (!found) return undefined;
      const service = type === 'user' ? engine.users : type === 'lead' ? engine.leads : engine.contacts;
      return JSON.parse(service.json(id)) as Record<string, unknown>;
    },
    mailer: smtpMailer(),
  });
  scheduler.start(options.schedulerIntervalMs ?? (options.clock ? 0 : schedulerIntervalFromEnv()));
  return scheduler;
}
