import type { Actor, EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { requireAdmin } from '../auth/permissions.js';
import { FieldErrors, notFound } from '../problems.js';
import { checkFields, isBlank, type FieldTable } from './fields.js';
import { runList, type ListDefinition, type ListPage } from './listing.js';
import type { RawQuery } from './params.js';
import { RecordStore, recordJson } from './recordStore.js';
import { jsonBool, jsonObject } from '../db/sqlJson.js';
import { currencyCode, currencyCodeProblem, parseDecimal, parsePercent } from './decimal.js';
import type { ProductPrice } from '../../../shared/resources/product.js';
import type { SyncSource } from '../sync/sources.js';

/** Percents a product allows at most; a markup above 1000 % is taken for a typo. */
const MAX_MARKUP_LIMIT = 1000;

/**
 * The spec's product fields. Decimals (`cost`, the percents) and `prices`
 * are parsed on their own; what the service keeps itself is read-only, and
 * sent back it is accepted and ignored.
 */
export const FIELDS: FieldTable = {
  id: { kind: 'readOnly' },
  creator_id: { kind: 'readOnly' },
  created_at: { kind: 'readOnly' },
  updated_at: { kind: 'readOnly' },
  name: { kind: 'string' },
  description: { kind: 'string', maxLength: 65535 },
  sku: { kind: 'string' },
  active: { kind: 'boolean' },
  cost_currency: { kind: 'string' },
};
const OWN_FIELDS = ['prices', 'cost', 'max_discount', 'max_markup'] as const;

/**
 * A product's JSON. `cost` and `cost_currency` are the administrators' only:
 * for anyone else both are null (the keys stay, so every client sees one shape).
 */
function productJson(costVisible: string): string {
  return jsonObject({
    id: 'p.id',
    creator_id: 'p.creator_id',
    name: 'p.name',
    description: 'p.description',
    sku: 'p.sku',
    active: jsonBool('p.active'),
    max_discount: 'json(p.max_discount)',
    max_markup: 'json(p.max_markup)',
    cost: `CASE WHEN ${costVisible} THEN p.cost END`,
    cost_currency: `CASE WHEN ${costVisible} THEN p.cost_currency END`,
    prices: 'json(p.prices)',
    created_at: 'p.created_at',
    updated_at: 'p.updated_at',
  });
}

const ADMIN_JSON = productJson('1');
const AGENT_JSON = productJson('0');
/** In the catalog: not deleted. */
const LISTED = 'p.deleted_at IS NULL';

/**
 * Products as devices receive them (sync/): a device gets the cost when its
 * user (`@user`) is an administrator, as GET answers that user. Deleted
 * products are not visible, so devices drop them.
 */
export const PRODUCT_SYNC: SyncSource = {
  type: 'product',
  from: 'products p',
  idColumn: 'p.id',
  json: productJson("EXISTS (SELECT 1 FROM users u WHERE u.id = @user AND u.role = 'admin')"),
  visibleTo: LISTED,
};

const WRITABLE = ['name', 'description', 'sku', 'active', 'max_discount', 'max_markup', 'cost', 'cost_currency', 'prices'] as const;

interface ProductRow {
  id: number;
  name: string;
  active: number;
  max_discount: string;
  max_markup: string;
  prices: string;
  [column: string]: unknown;
}

/** What a line item takes from its product. */
export interface CatalogEntry {
  id: number;
  name: string;
  sku: string | null;
  description: string | null;
  active: boolean;
  maxDiscount: string;
  maxMarkup: string;
  prices: ProductPrice[];
}

/**
 * The product catalog at /v2/products. Everyone reads it; only account
 * administrators create, change and delete products. Deleting takes a
 * product out of the catalog (it answers 404 and leaves lists and devices)
 * while its row stays for the line items made from it, which keep the
 * name, sku and price they copied.
 */
export class Products {
  private readonly store: RecordStore;
  private readonly listed;
  private readonly lists: Record<'admin' | 'agent', ListDefinition>;

  constructor(private readonly ctx: EngineContext) {
    this.store = new RecordStore(ctx, 'products', 'product', WRITABLE);
    this.listed = ctx.db.prepare(`SELECT * FROM products p WHERE p.id = ? AND ${LISTED}`);
    this.lists = { admin: this.listDefinition(ADMIN_JSON), agent: this.listDefinition(AGENT_JSON) };
  }

  json(id: number, actor: Actor): string {
    return recordJson(this.ctx, 'product', `SELECT ${jsonFor(actor)} FROM products p WHERE p.id = ? AND ${LISTED}`, id);
  }

  listPage(query: RawQuery, actor: Actor): ListPage {
    return runList(this.lists[actor.role === 'admin' ? 'admin' : 'agent'], query, this.ctx.statements);
  }

  /** A product in the catalog, as line items need it; undefined when there is none (or it was deleted). */
  find(id: number): CatalogEntry | undefined {
    const row = this.listed.get(id) as ProductRow | undefined;
    if (!row) return undefined;
    return {
      id: row.id, name: row.name, sku: row.sku as string | null, description: row.description as string | null,
      active: row.active === 1, maxDiscount: row.max_discount, maxMarkup: row.max_markup, prices: JSON.parse(row.prices) as ProductPrice[],
    };
  }

  create(data: Record<string, unknown>, actor: Actor): number {
    requireAdmin(actor);
    const { values, errors } = checkFields('product', FIELDS, withoutOwn(data));
    for (const field of ['name', 'prices'] as const) {
      if (data[field] === undefined) errors.add(`/${field}`, 'missing', `${field} is required.`);
    }
    const row = this.apply({ active: 1, max_discount: '0', max_markup: '0', prices: '[]' }, values, data, errors);
    return this.store.insert(row, { creator_id: actor.userId }, actor.userId);
  }

  update(id: number, data: Record<string, unknown>, actor: Actor): void {
    requireAdmin(actor);
    const current = this.listed.get(id) as ProductRow | undefined;
    if (!current) throw notFound('product', id);
    const { values, errors } = checkFields('product', FIELDS, withoutOwn(data));
    this.store.update(id, this.apply({ ...current }, values, data, errors), actor.userId);
  }

  /** Out of the catalog: the row stays (deleted_at) for the line items made from it; devices drop it. */
  delete(id: number, actor: Actor): void {
    requireAdmin(actor);
    if (!this.listed.get(id)) throw notFound('product', id);
    const now = isoSeconds(this.ctx.clock.now());
    this.ctx.db.transaction(() => {
      this.ctx.statements.get('UPDATE products SET deleted_at = ?, updated_at = ? WHERE id = ?').run(now, now, id);
      this.ctx.changes.record('product', id, 'deleted', actor.userId);
    })();
  }

  /** Merges checked values into the row; throws one 422 listing every problem. */
  private apply(row: Record<string, unknown>, values: Record<string, unknown>, data: Record<string, unknown>, errors: FieldErrors): Record<string, unknown> {
    const out = { ...row };
    if (values.name !== undefined && !errors.has('/name')) {
      if (isBlank(values.name)) errors.add('/name', 'blank', "name can't be blank.");
      else out.name = (values.name as string).trim();
    }
    for (const field of ['description', 'sku'] as const) {
      if (values[field] !== undefined) out[field] = isBlank(values[field]) ? null : (values[field] as string).trim();
    }
    if (values.active !== undefined) out.active = values.active ? 1 : 0;
    if (values.cost_currency !== undefined && !errors.has('/cost_currency')) {
      const code = currencyCode(values.cost_currency);
      if (isBlank(values.cost_currency)) out.cost_currency = null;
      else if (!code) errors.add('/cost_currency', 'incorrect_value', currencyCodeProblem('cost_currency', values.cost_currency));
      else out.cost_currency = code;
    }
    this.applyDecimals(out, data, errors);
    if (data.prices !== undefined) {
      const prices = parsePrices(data.prices, errors);
      if (prices) out.prices = JSON.stringify(prices);
    }
    errors.throwIfAny();
    return out;
  }

  /** `cost` (null clears it) and the two percents a line item's variation must stay within. */
  private applyDecimals(out: Record<string, unknown>, data: Record<string, unknown>, errors: FieldErrors): void {
    if (data.cost !== undefined) {
      const cost = data.cost === null ? { ok: true as const, value: null } : parseDecimal(data.cost);
      if (cost.ok) out.cost = cost.value;
      else errors.add('/cost', cost.code, `cost ${cost.problem}.`);
    }
    const limits = { max_discount: 100, max_markup: MAX_MARKUP_LIMIT } as const;
    for (const [field, max] of Object.entries(limits)) {
      if (data[field] === undefined) continue;
      const percent = parsePercent(data[field], 0, max);
      if (percent.ok) out[field] = percent.value;
      else errors.add(`/${field}`, percent.code, `${field} is a percent and ${percent.problem}.`);
    }
  }

  private listDefinition(json: string): ListDefinition {
    return {
      resource: 'product',
      from: 'products p',
      json,
      idColumn: 'p.id',
      filters: {
        name: { kind: 'string', column: 'p.name' },
        sku: { kind: 'string', column: 'p.sku' },
        active: { kind: 'bool', column: 'p.active' },
      },
      sorts: { id: 'p.id', updated_at: 'p.updated_at', created_at: 'p.created_at' },
      defaultOrder: 'p.id ASC',
      scope: [{ sql: LISTED, params: [] }],
    };
  }
}

function jsonFor(actor: Actor): string {
  return actor.role === 'admin' ? ADMIN_JSON : AGENT_JSON;
}

function withoutOwn(data: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...data };
  for (const field of OWN_FIELDS) delete rest[field];
  return rest;
}

/**
 * `prices`: an array of `{amount, currency}`, replacing the product's whole
 * list; amounts are decimals (strings or numbers), currencies ISO 4217 codes,
 * each currency at most once. Null when any element is wrong (errors added).
 */
function parsePrices(input: unknown, errors: FieldErrors): ProductPrice[] | null {
  if (!Array.isArray(input)) {
    errors.add('/prices', 'invalid_type', 'prices must be an array of {"amount": "1599.99", "currency": "USD"}.');
    return null;
  }
  const prices: ProductPrice[] = [];
  const seen = new Set<string>();
  input.forEach((element: unknown, i) => {
    const at = `/prices/${i}`;
    if (typeof element !== 'object' || element === null || Array.isArray(element)) {
      errors.add(at, 'invalid_type', 'Each price must be an object with amount and currency.');
      return;
    }
    const price = element as Record<string, unknown>;
    for (const key of Object.keys(price)) {
      if (key !== 'amount' && key !== 'currency') errors.add(`${at}/${key}`, 'unknown', `${key} is not an attribute of a price.`);
    }
    const amount = price.amount === undefined || price.amount === null ? null : parseDecimal(price.amount);
    if (!amount) errors.add(`${at}/amount`, 'missing', 'amount is required.');
    else if (!amount.ok) errors.add(`${at}/amount`, amount.code, `amount ${amount.problem}.`);
    const currency = currencyCode(price.currency);
    if (price.currency === undefined || price.currency === null) errors.add(`${at}/currency`, 'missing', 'currency is required.');
    else if (!currency) errors.add(`${at}/currency`, 'incorrect_value', currencyCodeProblem('currency', price.currency));
    else if (seen.has(currency)) errors.add(`${at}/currency`, 'already_exists', `The product has a price in ${currency} already: one price per currency.`);
    if (currency) seen.add(currency);
    if (amount?.ok && currency) prices.push({ amount: amount.value, currency });
  });
  return prices.length === input.length ? prices : null;
}
