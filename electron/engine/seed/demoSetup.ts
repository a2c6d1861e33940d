import { faker } from '@faker-js/faker';
import type { Actor } from '../context.js';
import type { Engine } from '../engine.js';
import type { NamedList } from '../resources/namedLists.js';
import type { Scope } from '../../../shared/oauth.js';
import type { UserRole } from '../../../shared/resources/user.js';

/**
 * What every part of the demo data shares: the users records are spread
 * over (each record is written as its owner, so creator and owner are a
 * rep of the team), the currencies, and the named lists records point at.
 */

const SCOPES: ReadonlySet<Scope> = new Set<Scope>(['read', 'write']);

export interface DemoUsers {
  /** The first active admin: writes what only admins may (products, templates, sequences). */
  admin: Actor;
  /** Every active user, admins included: owners are spread over them. */
  all: Actor[];
}

export function demoUsers(engine: Engine): DemoUsers {
  const rows = engine.db.prepare("SELECT id, role FROM users WHERE status = 'active' AND deleted_at IS NULL ORDER BY id").all() as { id: number; role: UserRole }[];
  const all = rows.map((row): Actor => ({ userId: row.id, role: row.role, scopes: SCOPES }));
  const admin = all.find((actor) => actor.role === 'admin');
  if (!admin) throw new Error('No active admin user yet: create one with `outpost users add` (or start the hub once) before seeding.');
  return { admin, all };
}

/** Rough rates from US dollars, for the prices of the demo catalog. */
const RATES: Record<string, number> = { USD: 1, EUR: 0.92, GBP: 0.79, CAD: 1.37 };

/** The account's currency first, then the others demo deals and prices use (four in all). */
export function demoCurrencies(engine: Engine): string[] {
  const account = (JSON.parse(engine.accounts.json()) as { currency: string }).currency;
  return [account, ...Object.keys(RATES).filter((c) => c !== account)].slice(0, 4);
}

/**
 * Exchange rates into the account's currency for the other demo currencies
 * that have none yet (an admin's own rates are kept), from the rough rates
 * above, to four decimals. None when the account's currency is not among them.
 */
export function seedExchangeRates(engine: Engine, admin: Actor): string[] {
  const [home, ...foreign] = demoCurrencies(engine);
  const homeRate = RATES[home];
  if (homeRate === undefined) return [];
  const have = new Set(engine.exchangeRates.table().keys());
  const missing = foreign.filter((c) => !have.has(c) && RATES[c] !== undefined);
  for (const currency of missing) engine.exchangeRates.set(currency, { rate: (homeRate / RATES[currency]).toFixed(4) }, admin.userId);
  return missing;
}

/** A US dollar price in another currency, to the half unit ("826.50"); an unknown currency keeps the number. */
export function priceIn(usd: number, currency: string): string {
  return (Math.round(usd * (RATES[currency] ?? 1) * 2) / 2).toFixed(2);
}

/**
 * The faker seed of one part of one run: the part's own seed plus how many
 * records the table already holds, so the same database gives the same
 * data, while a second run on it draws other names and addresses.
 */
export function runSeed(engine: Engine, table: string, seed: number): number {
  return seed + (engine.db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number);
}

/**
 * The ids of entries of a named list (sources, reasons, outcomes) by name,
 * created through the list's service when missing (an admin may have
 * renamed or removed the ones a hub starts with).
 */
export function ensureEntries(engine: Engine, list: NamedList, names: readonly string[], admin: Actor): Map<string, number> {
  const { table, kinds } = list.kind;
  const kind = kinds?.[0];
  const find = engine.db.prepare(`SELECT id FROM ${table} WHERE name = ?${kind ? ' AND resource_type = ?' : ''} ORDER BY id LIMIT 1`).pluck();
  return new Map(names.map((name) => {
    const existing = find.get(...(kind ? [name, kind] : [name])) as number | undefined;
    return [name, existing ?? list.create({ name }, admin)];
  }));
}

/** Every entry of a list (the outcomes a hub starts with, and any an admin added), by name. */
export function allEntries(engine: Engine, list: NamedList): Map<string, number> {
  const rows = engine.db.prepare(`SELECT name, id FROM ${list.kind.table} ORDER BY id`).raw().all() as [string, number][];
  return new Map(rows.reverse());
}

/**
 * The fields worth sending: without the null, false and empty ones, which
 * are the services' defaults anyway (every field sent costs its check).
 */
export function sent(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([, value]) => value !== null && value !== undefined && value !== false && !(Array.isArray(value) && value.length === 0)));
}

/**
 * Records of one kind to draw from at random: their ids are read at once,
 * a drawn record's row when it is drawn (with 100 000 contacts, reading
 * every row to use a few hundred would cost more than the records made).
 */
export class Pool<T> {
  private readonly ids: number[];
  private readonly row;

  constructor(engine: Engine, idsSql: string, rowSql: string, private readonly shape: (row: Record<string, unknown>) => T) {
    this.ids = engine.db.prepare(idsSql).pluck().all() as number[];
    this.row = engine.db.prepare(rowSql);
  }

  get size(): number {
    return this.ids.length;
  }

  draw(): T {
    return this.shape(this.row.get(faker.helpers.arrayElement(this.ids)) as Record<string, unknown>);
  }
}

/** The ISO day (YYYY-MM-DD) of a date, in UTC as the API writes dates. */
export const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** Milliseconds in a day. */
export const DAY = 86_400_000;
