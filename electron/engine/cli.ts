import { parseArgs, type ParseArgsConfig } from 'node:util';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import type { Engine } from './engine.js';
import { parseScope } from './auth/scopes.js';
import { ApiProblem } from './problems.js';
import { DEFAULT_SCOPE } from '../../shared/oauth.js';
import { ADDONS, COMMERCE_CHANGES, PLANS } from '../../shared/resources/account.js';
import { LOG_LEVELS, type LogLevel } from './http/logLevels.js';

// Each command loads what it needs when it runs (the engine, the HTTP stack, the demo-data generator): the
// command line, `outpost help` and a mistyped option answer without loading the engine's packages.

/**
 * Engine workers of a PostgreSQL hub node (http/engineWorkers.ts). Each mostly waits on the database, so a few
 * help even on two cores; each costs an engine's memory (docs/hub.md says how to choose).
 */
const DEFAULT_WORKERS = 2;

// Two folders up both from this file and from its build, dist/cli/cli.mjs (scripts/build-cli.mjs).
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const USAGE = `Usage: outpost <command> [--data-dir DIR] [--database-url postgres://…]
  (--database-url, or OUTPOST_DATABASE_URL: the hub's database on PostgreSQL, shared by several hub nodes, instead of DIR/outpost.sqlite)
  serve [--port P] [--host H] [--rate-limit N]   start the hub (REST, OAuth, web UI)
        [--log-level info]                       JSON logs on stderr: fatal, error, warn, info, debug, trace or silent (or OUTPOST_LOG_LEVEL)
        [--support-base-url URL]                 the URL custom-objects answers (/api/v2) link to (default: the request's origin)
        [--trust-proxy ADDRESSES]                the reverse proxies (comma separated addresses or CIDR ranges) whose X-Forwarded-For names the client
        [--workers N]                            on PostgreSQL: engine workers answering requests side by side (default 2, or OUTPOST_WORKERS; 0: one engine)
  serve --upstream URL [--upstream-token T] …    run a replica of that hub (the desktop engine, headless)
  users add --email E --name N --role admin|agent --password P   (an account's first user must be an admin)
  users add --email E --name N --role admin|agent [--hub-url URL]   without a password: invited; prints a one-time link (7 days)
  users deactivate|activate --email E       (a deactivated user's tokens stop working)
  clients add --name N --redirect-uri URI [--public]   register an OAuth application
  clients list
  clients remove --client-id ID
  tokens create --email E [--scope "read write profile sync"]
  tokens revoke --token T
  import text-messages|visits FILE.json [--email E]   (a JSON array; all or nothing)
  seed [--contacts N] [--leads N] [--deals N] [--orders N] [--calls N] [--visits N] [--tasks N] [--notes N] [--text-messages N]
                                  demo data; with --contacts, every other kind too (a share of N unless given)
  account show
  account set [--plan NAME] [--addon outbound-sequences=on|off] [--commerce-changes enabled|disabled]
              [--smtp-url smtp://user:pass@host:port|none] [--email-daily-quota N]
  backup --to FILE [--force]      online copy of the database to FILE (a hub may be running), its documents to FILE.documents/
  restore --from FILE [--force]   put a backup in place (no hub may be running on the folder)
  migrate --from-data-dir DIR --to postgres://… [--force]   copy a SQLite hub (stopped) into PostgreSQL, ids and all`;

/** A mistake in how the command was called: one line on stderr, exit code 2. */
class UsageError extends Error {}

type Options = Record<string, string | boolean | undefined>;

function parse(args: string[], options: ParseArgsConfig['options']): Options {
  try {
    const { values, positionals } = parseArgs({
      args, options: { 'data-dir': { type: 'string' }, 'database-url': { type: 'string' }, ...options }, strict: true, allowPositionals: true,
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    return values as Options;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError((err as Error).message.split('\n')[0]);
  }
}

function required(values: Options, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function integer(value: string | boolean | undefined, name: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) < min) throw new UsageError(`--${name} must be an integer of at least ${min}`);
  return Number(value);
}

const dataDirOf = (values: Options) => resolve(typeof values['data-dir'] === 'string' ? values['data-dir'] : process.env.OUTPOST_DATA_DIR ?? 'data');

/** `--database-url`, else `$OUTPOST_DATABASE_URL`: a hub on PostgreSQL; undefined for the SQLite file in the data folder. */
function databaseUrlOf(values: Options): string | undefined {
  const url = values['database-url'] ?? process.env.OUTPOST_DATABASE_URL;
  if (url === undefined || url === '') return undefined;
  if (typeof url !== 'string' || !/^postgres(ql)?:\/\/\S+$/.test(url)) throw new UsageError('--database-url (or OUTPOST_DATABASE_URL) must be a postgres:// URL');
  return url;
}

async function withEngine<T>(values: Options, run: (engine: Engine) => Promise<T> | T): Promise<T> {
  const { openEngine } = await import('./engine.js');
  // The hub may be running on the same database: its scheduler runs sequences, not this command.
  const engine = openEngine({ dataDir: dataDirOf(values), databaseUrl: databaseUrlOf(values), runSequences: false });
  try {
    return await run(engine);
  } finally {
    engine.close();
  }
}

async function serve(args: string[]): Promise<void> {
  const values = parse(args, {
    port: { type: 'string' }, host: { type: 'string' }, 'rate-limit': { type: 'string' }, upstream: { type: 'string' }, 'upstream-token': { type: 'string' },
    'support-base-url': { type: 'string' }, 'log-level': { type: 'string' }, workers: { type: 'string' },
    'trust-proxy': { type: 'string' },
  });
  const logger = { level: logLevelOf(values) };
  const upstream = typeof values.upstream === 'string' ? values.upstream : undefined;
  if (upstream !== undefined && !/^https?:\/\/[^\s/]+/.test(upstream)) throw new UsageError('--upstream must be the hub\'s http(s) URL');
  if (values['upstream-token'] !== undefined && upstream === undefined) throw new UsageError('--upstream-token needs --upstream');
  const databaseUrl = databaseUrlOf(values);
  if (databaseUrl !== undefined && upstream !== undefined) throw new UsageError('a replica (--upstream) keeps its data in SQLite: --database-url is for a hub');
  if (values.workers !== undefined && databaseUrl === undefined) throw new UsageError('--workers is for a hub on PostgreSQL (--database-url): on SQLite one engine answers in process');
  const workers = integer(values.workers ?? process.env.OUTPOST_WORKERS, 'workers', DEFAULT_WORKERS);
  const { normalizeSupportBaseUrl } = await import('./http/supportApi.js');
  const supportBaseUrl = typeof values['support-base-url'] === 'string' ? normalizeSupportBaseUrl(values['support-base-url']) ?? undefined : undefined;
  if (values['support-base-url'] !== undefined && supportBaseUrl === undefined) throw new UsageError('--support-base-url must be an http(s) URL such as https://crm.example.com');
  // A node started with (or just before) its database waits for it (OUTPOST_PG_START_WAIT_MS, default a minute).
  const postgres = databaseUrl === undefined ? undefined : await import('./db/postgresConnection.js');
  if (postgres && databaseUrl !== undefined) {
    const { millisecondsFromEnv } = await import('./db/postgresBridge.js');
    const waitMs = millisecondsFromEnv(process.env, 'OUTPOST_PG_START_WAIT_MS') ?? 60_000;
    await postgres.untilPostgresAnswers(databaseUrl, waitMs, (why) => console.log(`Waiting for PostgreSQL at ${withoutPassword(databaseUrl)} (up to ${Math.round(waitMs / 1000)} s): ${why}`));
  }
  const { startHub } = await import('./hub.js');
  const { stopOnSignals } = await import('./shutdown.js');
  const hub = await startHub({
    dataDir: dataDirOf(values),
    databaseUrl,
    host: typeof values.host === 'string' ? values.host : '127.0.0.1',
    port: integer(values.port, 'port', 4100),
    rateLimitPerHour: integer(values['rate-limit'] ?? process.env.OUTPOST_RATE_LIMIT, 'rate-limit', 36_000),
    webRoot: resolve(REPO_ROOT, 'dist/renderer'),
    docsFile: resolve(REPO_ROOT, 'docs/api.md'),
    upstream: upstream === undefined ? undefined : { url: upstream, token: typeof values['upstream-token'] === 'string' ? values['upstream-token'] : undefined },
    supportBaseUrl,
    logger,
    workers: databaseUrl === undefined ? 0 : workers,
    trustProxy: trustedProxies(values['trust-proxy'] ?? process.env.OUTPOST_TRUST_PROXY),
  });
  // Before the line that says it listens: whoever reads it may stop it at once.
  stopOnSignals(hub);
  const role = upstream === undefined ? 'hub' : `replica of ${upstream}`;
  // The driver too (docs/hub.md, "The database driver"): where libpq did not build, a node runs on the slower bridge.
  const driver = postgres ? `, driver ${postgres.postgresDriver()}` : '';
  const data = databaseUrl === undefined ? dataDirOf(values) : `PostgreSQL at ${withoutPassword(databaseUrl)}${driver}`;
  console.log(`Outpost ${role} listening on ${hub.url} (data: ${data})`);
  void hub.workers?.started.then((ready) => console.log(`Engine workers ready: ${ready} of ${workers}`));
}

/** `--trust-proxy`: addresses or CIDR ranges, comma separated; anything else is refused at start rather than trusting the wrong senders. */
function trustedProxies(value: string | boolean | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const entries = typeof value === 'string' ? value.split(',').map((entry) => entry.trim()) : [];
  const address = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-fA-F:]+)(?:\/\d{1,3})?$/;
  if (entries.length === 0 || !entries.every((entry) => address.test(entry))) {
    throw new UsageError('--trust-proxy must be the proxies\' addresses or CIDR ranges, comma separated (e.g. 10.0.0.5,10.1.0.0/16)');
  }
  return entries.join(',');
}

/** A database URL fit to print: its password (if any) left out. */
function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/** `--log-level`, else `$OUTPOST_LOG_LEVEL`, else info. */
function logLevelOf(values: Options): LogLevel {
  const level = values['log-level'] ?? process.env.OUTPOST_LOG_LEVEL ?? 'info';
  if (!(LOG_LEVELS as readonly unknown[]).includes(level)) throw new UsageError(`--log-level (or OUTPOST_LOG_LEVEL) must be one of: ${LOG_LEVELS.join(', ')} (given: ${level})`);
  return level as LogLevel;
}

async function backup(args: string[]): Promise<void> {
  const values = parse(args, { to: { type: 'string' }, force: { type: 'boolean' } });
  refuseOnPostgres(values, 'backup');
  const to = resolve(required(values, 'to'));
  const { backupDataDir } = await import('./backup/backup.js');
  report(await backupDataDir({ dataDir: dataDirOf(values), to, force: values.force === true }));
}

async function restore(args: string[]): Promise<void> {
  const values = parse(args, { from: { type: 'string' }, force: { type: 'boolean' } });
  refuseOnPostgres(values, 'restore');
  const from = resolve(required(values, 'from'));
  const { restoreDataDir } = await import('./backup/restore.js');
  report(restoreDataDir({ from, dataDir: dataDirOf(values), force: values.force === true }));
}

/** backup and restore copy the SQLite file; a PostgreSQL hub is backed up by PostgreSQL's own tools. */
function refuseOnPostgres(values: Options, command: string): void {
  if (databaseUrlOf(values) !== undefined) {
    throw new UsageError(`${command} copies a SQLite hub's folder; back up a PostgreSQL hub with pg_dump and pg_restore (or the provider's backups)`);
  }
}

/** `migrate`: a SQLite hub's database copied into PostgreSQL (db/postgres/copy.ts); one line per table, then a summary. */
async function migrate(args: string[]): Promise<void> {
  const values = parse(args, { 'from-data-dir': { type: 'string' }, to: { type: 'string' }, force: { type: 'boolean' } });
  const from = resolve(required(values, 'from-data-dir'));
  const to = required(values, 'to');
  if (!/^postgres(ql)?:\/\/\S+$/.test(to)) throw new UsageError('--to must be a postgres:// URL');
  const { copyHub, MigrateRefusal } = await import('./db/postgres/copy.js');
  const { DataDirLockedError } = await import('./dataDirLock.js');
  try {
    const result = await copyHub({ dataDir: from, url: to, force: values.force === true, log: console.log });
    if (result.upgradedFrom !== null) console.log(`(The SQLite hub's schema was upgraded from ${result.upgradedFrom} first, as starting this version on it would.)`);
    console.log(`Copied ${result.rows} rows of ${result.tables.length} tables in ${result.seconds.toFixed(1)} s into ${withoutPassword(to)}.`);
    console.log(`${result.documents} documents: ${result.documentBytes} with their contents from ${resolve(from, 'documents')}, now stored in the database.`);
  } catch (err) {
    if (err instanceof MigrateRefusal || err instanceof DataDirLockedError) throw new UsageError(err.message);
    throw err;
  }
}

/** A backup's or restore's one line on stdout; what it could not copy, as warnings on stderr. */
function report(result: { summary: string; warnings: string[] }): void {
  for (const warning of result.warnings) console.error(`outpost: warning: ${warning}`);
  console.log(result.summary);
}

async function usersAdd(args: string[]): Promise<void> {
  const values = parse(args, { email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' }, password: { type: 'string' }, 'hub-url': { type: 'string' } });
  const role = required(values, 'role');
  if (role !== 'admin' && role !== 'agent') throw new UsageError('--role must be admin or agent');
  const [email, name] = [required(values, 'email'), required(values, 'name')];
  const password = typeof values.password === 'string' ? values.password : undefined;
  if (password === undefined) return usersInvite(values, { email, name, role: role === 'admin' ? 'admin' : 'user' });
  await withEngine(values, async (engine) => {
    refuseAgentWithoutAdmin(engine, role);
    const id = await engine.users.create({ email, name, password, role: role === 'admin' ? 'admin' : 'user' });
    console.log(engine.users.json(id));
  });
}

/**
 * An account always has an administrator (resources/users.ts, hasAdmin):
 * the first user of an empty data folder or database must be one. The role
 * asked for is never changed behind the operator's back: the command refuses
 * and says how to do it right.
 */
function refuseAgentWithoutAdmin(engine: Engine, role: string): void {
  if (role === 'admin' || engine.users.hasAdmin()) return;
  throw new Error('this account has no administrator yet, and its first user must be one: add an admin first '
    + '(outpost users add --email E --name N --role admin --password P, or start serve with OUTPOST_ADMIN_EMAIL), then agents');
}

/** `users add` without a password: an invited user (as `POST /v2/users` makes one); the link goes to stderr, the user JSON to stdout. */
async function usersInvite(values: Options, user: { email: string; name: string; role: 'admin' | 'user' }): Promise<void> {
  const hubUrl = typeof values['hub-url'] === 'string' ? values['hub-url'] : 'http://127.0.0.1:4100';
  const { Invitations, inviteLink } = await import('./auth/invitations.js');
  await withEngine(values, async (engine) => {
    refuseAgentWithoutAdmin(engine, user.role === 'admin' ? 'admin' : 'agent');
    const checked = await engine.users.checkNew(user);
    const { id, invite } = engine.db.transaction(() => {
      const newId = engine.users.insert(checked, null);
      return { id: newId, invite: new Invitations(engine.ctx).issue(newId) };
    })();
    console.log(engine.users.json(id));
    console.error(`Invite link (works once, until ${invite.expiresAt}; send it to ${user.email}): ${inviteLink(hubUrl, invite)}`);
  });
}

async function usersSetStatus(args: string[], status: 'active' | 'inactive'): Promise<void> {
  const values = parse(args, { email: { type: 'string' } });
  const email = required(values, 'email');
  await withEngine(values, (engine) => {
    const id = engine.users.idByEmail(email);
    if (id === undefined) throw new Error(`no user with email ${email}`);
    // As the API: the last active administrator stays one.
    if (status === 'inactive') engine.users.keepAnAdmin(engine.users.find(id)!, { status });
    engine.users.setStatus(id, status);
    console.log(engine.users.json(id));
  });
}

async function accountShow(args: string[]): Promise<void> {
  const values = parse(args, {});
  await withEngine(values, (engine) => console.log(engine.accounts.json()));
}

/** `account set`: the plan, add-ons and the commerce switch, as an admin would set them in Settings. */
async function accountSet(args: string[]): Promise<void> {
  const values = parse(args, {
    plan: { type: 'string' }, addon: { type: 'string', multiple: true }, 'commerce-changes': { type: 'string' },
    'smtp-url': { type: 'string' }, 'email-daily-quota': { type: 'string' },
  });
  const plan = values.plan as string | undefined;
  if (plan !== undefined && !(PLANS as readonly string[]).includes(plan)) throw new UsageError(`--plan must be one of: ${PLANS.join(', ')} (given: ${plan})`);
  const changes = values['commerce-changes'] as string | undefined;
  if (changes !== undefined && !(COMMERCE_CHANGES as readonly string[]).includes(changes)) {
    throw new UsageError(`--commerce-changes must be one of: ${COMMERCE_CHANGES.join(', ')} (given: ${changes})`);
  }
  const addonNames = ADDONS.map((a) => a.replaceAll('_', '-'));
  const switches = ((values.addon as string[] | undefined) ?? []).map((text) => {
    const match = /^([a-z-]+)=(on|off)$/.exec(text);
    if (!match || !addonNames.includes(match[1])) throw new UsageError(`--addon must be NAME=on or NAME=off, NAME one of: ${addonNames.join(', ')} (given: ${text})`);
    return { addon: match[1].replaceAll('-', '_'), on: match[2] === 'on' };
  });
  await withEngine(values, (engine) => {
    const settings: Record<string, unknown> = {};
    if (plan !== undefined) settings.plan = plan;
    if (changes !== undefined) settings.commerce_changes = changes;
    Object.assign(settings, mailSettings(values));
    if (switches.length > 0) {
      const addons = new Set((JSON.parse(engine.accounts.json()) as { addons: string[] }).addons);
      for (const { addon, on } of switches) {
        if (on) addons.add(addon);
        else addons.delete(addon);
      }
      settings.addons = [...addons];
    }
    engine.accounts.update(settings, null);
    console.log(engine.accounts.json());
  });
}

/** `--smtp-url URL|none` and `--email-daily-quota N` (checked by the account's settings rules; the password is never printed). */
function mailSettings(values: Options): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  const smtpUrl = values['smtp-url'] as string | undefined;
  if (smtpUrl !== undefined) settings.smtp_url = smtpUrl === 'none' ? null : smtpUrl;
  const quota = values['email-daily-quota'] as string | undefined;
  if (quota !== undefined) {
    if (!/^\d+$/.test(quota)) throw new UsageError(`--email-daily-quota must be a whole number (given: ${quota})`);
    settings.email_daily_quota = Number(quota);
  }
  return settings;
}

async function clientsAdd(args: string[]): Promise<void> {
  const values = parse(args, { name: { type: 'string' }, 'redirect-uri': { type: 'string' }, public: { type: 'boolean' } });
  const [name, redirectUri] = [required(values, 'name'), required(values, 'redirect-uri')];
  await withEngine(values, (engine) => {
    console.log(JSON.stringify(engine.clients.register({ name, redirect_uri: redirectUri, public: values.public === true })));
  });
}

async function clientsList(args: string[]): Promise<void> {
  const values = parse(args, {});
  await withEngine(values, (engine) => console.log(`[${engine.clients.listJson().join(',')}]`));
}

async function clientsRemove(args: string[]): Promise<void> {
  const values = parse(args, { 'client-id': { type: 'string' } });
  const clientId = required(values, 'client-id');
  await withEngine(values, (engine) => {
    engine.clients.remove(clientId);
    console.log('Removed; its tokens no longer work.');
  });
}

async function tokensCreate(args: string[]): Promise<void> {
  const values = parse(args, { email: { type: 'string' }, scope: { type: 'string' } });
  const email = required(values, 'email');
  const scope = parseScope(typeof values.scope === 'string' ? values.scope : DEFAULT_SCOPE);
  if (!scope) throw new UsageError('--scope must be a space-separated list of read, write, profile, sync');
  await withEngine(values, (engine) => {
    const user = engine.users.findByEmail(email);
    if (!user) throw new Error(`no user with email ${email}`);
    const token = engine.tokens.createPersonal(user.id, scope);
    console.log(JSON.stringify({ access_token: token, token_type: 'bearer', scope: scope.join(' ') }));
  });
}

async function tokensRevoke(args: string[]): Promise<void> {
  const values = parse(args, { token: { type: 'string' } });
  const token = required(values, 'token');
  await withEngine(values, (engine) => {
    if (!engine.tokens.revokePersonal(token)) throw new Error('no such personal access token (or it was already revoked)');
    console.log('Revoked.');
  });
}

const IMPORTERS = {
  'text-messages': (engine: Engine) => engine.textMessages,
  visits: (engine: Engine) => engine.visits,
} as const;

/** Imports a JSON array of records as one user (default: the first admin); one bad record imports nothing. */
async function importRecords(kind: string | undefined, args: string[]): Promise<void> {
  if (kind !== 'text-messages' && kind !== 'visits') throw new UsageError('import needs text-messages or visits');
  const [file, ...rest] = args;
  if (!file || file.startsWith('--')) throw new UsageError('import needs a JSON file');
  const values = parse(rest, { email: { type: 'string' } });
  let records: unknown;
  try {
    records = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as Error).message.split('\n')[0]}`);
  }
  if (!Array.isArray(records)) throw new Error(`${file} must hold a JSON array of records`);
  await withEngine(values, (engine) => {
    const email = typeof values.email === 'string' ? values.email : undefined;
    const user = email ? engine.users.findByEmail(email) : engine.users.firstAdmin();
    if (!user) throw new Error(email ? `no user with email ${email}` : 'no admin user yet: create one with outpost users add');
    const actor = { userId: user.id, role: user.role, scopes: new Set(['write'] as const) };
    const service = IMPORTERS[kind](engine);
    engine.db.transaction(() => {
      records.forEach((record, index) => {
        try {
          if (typeof record !== 'object' || record === null || Array.isArray(record)) throw new Error('not an object');
          service.create(record as Record<string, unknown>, actor);
        } catch (err) {
          const detail = err instanceof ApiProblem ? err.errors.map((e) => `${e.field} ${e.message}`).join('; ') : (err as Error).message;
          throw new Error(`record ${index + 1}: ${detail} (nothing was imported)`);
        }
      });
    })();
    console.log(`Imported ${records.length} ${kind.replace('-', ' ')}.`);
  });
}

/** `seed`'s counts; with --contacts, the kinds not given get a share of them (seed/demoData.ts). */
const SEED_OPTIONS = ['contacts', 'leads', 'deals', 'orders', 'calls', 'visits', 'tasks', 'notes', 'text-messages'] as const;

async function seed(args: string[]): Promise<void> {
  const values = parse(args, Object.fromEntries(SEED_OPTIONS.map((name) => [name, { type: 'string' as const }])));
  const given = Object.fromEntries(SEED_OPTIONS.filter((name) => values[name] !== undefined)
    .map((name) => [name === 'text-messages' ? 'textMessages' : name, integer(values[name], name, 0)]));
  if (!Object.values(given).some((n) => n > 0)) throw new UsageError('seed needs --contacts N (or --leads, --deals, --orders, --calls, --visits, --tasks, --notes, --text-messages) of at least 1');
  const { seedDemoData } = await import('./seed/demoData.js');
  const { bootstrapAdmin } = await import('./firstAdmin.js');
  const { withRollbackJournal } = await import('./db/rollbackJournal.js');
  await withEngine(values, async (engine) => {
    await bootstrapAdmin(engine, process.env, console.log);
    withRollbackJournal(engine.db, () => seedDemoData(engine, given, console.log));
  });
}

export async function main(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  try {
    if (command === 'serve') await serve(argv.slice(1));
    else if (command === 'users' && sub === 'add') await usersAdd(rest);
    else if (command === 'users' && (sub === 'deactivate' || sub === 'activate')) await usersSetStatus(rest, sub === 'activate' ? 'active' : 'inactive');
    else if (command === 'clients' && sub === 'add') await clientsAdd(rest);
    else if (command === 'clients' && sub === 'list') await clientsList(rest);
    else if (command === 'clients' && sub === 'remove') await clientsRemove(rest);
    else if (command === 'tokens' && sub === 'create') await tokensCreate(rest);
    else if (command === 'tokens' && sub === 'revoke') await tokensRevoke(rest);
    else if (command === 'seed') await seed(argv.slice(1));
    else if (command === 'account' && sub === 'show') await accountShow(rest);
    else if (command === 'account' && sub === 'set') await accountSet(rest);
    else if (command === 'import') await importRecords(sub, rest);
    else if (command === 'backup') await backup(argv.slice(1));
    else if (command === 'restore') await restore(argv.slice(1));
    else if (command === 'migrate') await migrate(argv.slice(1));
    else if (command === undefined || command === 'help' || command === '--help') {
      console.log(USAGE);
      return command === undefined ? 2 : 0;
    } else throw new UsageError(`unknown command '${[command, sub].filter(Boolean).join(' ')}'`);
    return 0;
  } catch (err) {
    const message = err instanceof ApiProblem ? err.errors.map((e) => e.message).join('; ') : (err as Error).message;
    console.error(`outpost: ${message}${err instanceof UsageError ? ' (outpost help for usage)' : ''}`);
    return err instanceof UsageError ? 2 : 1;
  }
}
