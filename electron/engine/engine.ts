import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, type Db } from './db/database.js';
import { StatementCache } from './db/statements.js';
import { systemClock, type Clock } from './clock.js';
import { ChangeLog } from './sync/changeLog.js';
import type { EngineContext } from './context.js';
import { Users } from './resources/users.js';
import { Accounts } from './resources/account.js';
import { Contacts } from './resources/contacts.js';
import { CustomFields } from './resources/customFields.js';
import { Tagging } from './resources/tags.js';
import { Tokens } from './auth/tokens.js';
import { OAuthClients } from './auth/clients.js';
import { CsrfTokens } from './auth/csrf.js';
import { SignIn } from './auth/signIn.js';
import { Dependents } from './resources/dependents.js';
import { Tasks } from './resources/tasks.js';
import { Notes } from './resources/notes.js';
import { Calls } from './resources/calls.js';
import { TextMessages } from './resources/textMessages.js';
import { Visits } from './resources/visits.js';
import { Documents } from './resources/documents.js';
import { Outcomes, CALL_OUTCOMES, VISIT_OUTCOMES } from './resources/outcomes.js';
import { Acknowledgements } from './sync/acks.js';
import { Outbox } from './replica/outbox.js';
import { SyncSessions } from './sync/sessions.js';
import { SyncSources } from './sync/sources.js';
import { ACCOUNT_SYNC } from './resources/account.js';
import { USER_SYNC } from './resources/users.js';
import { CONTACT_SYNC } from './resources/contacts.js';
import { TAG_SYNC } from './resources/tags.js';
import { TASK_SYNC } from './resources/tasks.js';
import { NOTE_SYNC } from './resources/notes.js';
import { CALL_SYNC } from './resources/calls.js';
import { TEXT_MESSAGE_SYNC } from './resources/textMessages.js';
import { VISIT_SYNC } from './resources/visits.js';

export const DATABASE_FILE = 'outpost.sqlite';

export interface EngineOptions {
  /** Folder holding the database; created if missing. */
  dataDir: string;
  clock?: Clock;
  nativeBinding?: string;
  /** A desktop replica of a hub (replica/): temporary ids for local creates, an outbox of local changes. */
  replica?: boolean;
}

/** The CRM engine: one database, the services over it. No HTTP and no Electron in here. */
export interface Engine {
  ctx: EngineContext;
  db: Db;
  clock: Clock;
  users: Users;
  accounts: Accounts;
  contacts: Contacts;
  customFields: CustomFields;
  tokens: Tokens;
  clients: OAuthClients;
  csrf: CsrfTokens;
  signIn: SignIn;
  tasks: Tasks;
  notes: Notes;
  calls: Calls;
  callOutcomes: Outcomes;
  visitOutcomes: Outcomes;
  textMessages: TextMessages;
  visits: Visits;
  documents: Documents;
  sync: SyncSessions;
  close(): void;
}

export function openEngine(options: EngineOptions): Engine {
  mkdirSync(options.dataDir, { recursive: true });
  const clock = options.clock ?? systemClock;
  const db = openDatabase(join(options.dataDir, DATABASE_FILE), {
    nativeBinding: options.nativeBinding, clock, foreignKeys: !options.replica,
    // A desktop replica shares the rep's machine: a smaller page cache keeps it well under 200 MB.
    cacheMiB: options.replica ? 16 : 64,
  });
  const ctx: EngineContext = { db, clock, statements: new StatementCache(db), changes: new ChangeLog(db, clock), dependents: new Dependents() };
  if (options.replica) ctx.replica = { outbox: new Outbox(db, clock) };
  const users = new Users(ctx);
  const customFields = new CustomFields(ctx);
  const callOutcomes = new Outcomes(ctx, CALL_OUTCOMES);
  const visitOutcomes = new Outcomes(ctx, VISIT_OUTCOMES);
  const documents = new Documents(ctx, options.dataDir);
  // Every type a device can read; the change log's other types (none today) would be reported as failed objects.
  const syncSources = new SyncSources(db, [
    ACCOUNT_SYNC, USER_SYNC, CONTACT_SYNC, TAG_SYNC, TASK_SYNC, NOTE_SYNC, CALL_SYNC, callOutcomes.syncSource,
    visitOutcomes.syncSource, TEXT_MESSAGE_SYNC, VISIT_SYNC, documents.syncSource,
  ]);
  const sync = new SyncSessions(ctx, syncSources, new Acknowledgements(db));
  const engine: Engine = {
    ctx,
    db,
    clock,
    users,
    accounts: new Accounts(ctx),
    customFields,
    contacts: new Contacts(ctx, users, customFields, new Tagging(ctx)),
    tokens: new Tokens(ctx),
    clients: new OAuthClients(ctx),
    csrf: new CsrfTokens(ctx),
    signIn: new SignIn(ctx, users),
    tasks: new Tasks(ctx, users),
    notes: new Notes(ctx),
    calls: new Calls(ctx, users, callOutcomes),
    callOutcomes,
    visitOutcomes,
    textMessages: new TextMessages(ctx, users),
    visits: new Visits(ctx, visitOutcomes),
    documents,
    sync,
    close: () => {
      sync.flush();
      db.close();
    },
  };
  engine.accounts.ensure();
  engine.clients.ensureFirstParty();
  return engine;
}
