import type { Actor, EngineContext } from '../context.js';
import { FieldErrors, notFound } from '../problems.js';
import { checkFields, type FieldTable } from './fields.js';
import { runList, type ListDefinition, type ListPage } from './listing.js';
import type { RawQuery } from './params.js';
import { RecordStore } from './recordStore.js';
import { jsonObject } from '../db/sqlJson.js';
import type { CatalogEntry, Products } from './products.js';
import { applyPercent, currencyCode, currencyCodeProblem, decimalSortKey, fromHundredths, parsePercent, toHundredths } from './decimal.js';
import type { Orders } from './orders.js';
import type { SyncSource } from '../sync/sources.js';

/** Far more units than one line of a sales order holds; keeps value × quantity well inside exact arithmetic. */
const MAX_QUANTITY = 1_000_000;

/**
 * What a client writes: the product (on create only: there is no update),
 * the currency, quantity and variation. The rest is the service's: sent
 * back (the clients send `value` and `price`), it is accepted and ignored.
 * `variation` is a percent, parsed on its own.
 */
export const FIELDS: FieldTable = {
  id: { kind: 'readOnly' },
  order_id: { kind: 'readOnly' },
  name: { kind: 'readOnly' },
  sku: { kind: 'readOnly' },
  description: { kind: 'readOnly' },
  price: { kind: 'readOnly' },
  value: { kind: 'readOnly' },
  created_at: { kind: 'readOnly' },
  updated_at: { kind: 'readOnly' },
  product_id: { kind: 'id', createOnly: true },
  currency: { kind: 'string' },
  quantity: { kind: 'integer', min: 1 },
};
/** `/v2/line_items` (extension, the form a replica replays): the order is named in the body. */
export const FLAT_FIELDS: FieldTable = { ...FIELDS, order_id: { kind: 'id' } };

const LINE_ITEM_JSON = jsonObject({
  id: 'l.id',
  order_id: 'l.order_id',
  product_id: 'l.product_id',
  name: 'l.name',
  sku: 'l.sku',
  description: 'l.description',
  currency: 'l.currency',
  price: 'l.price',
  variation: 'json(l.variation)',
  value: 'l.value',
  quantity: 'l.quantity',
  created_at: 'l.created_at',
  updated_at: 'l.updated_at',
});

/** Line items as devices receive them (sync/). */
export const LINE_ITEM_SYNC: SyncSource = { type: 'line_item', from: 'line_items l', idColumn: 'l.id', json: LINE_ITEM_JSON };

const WRITABLE = ['order_id', 'product_id', 'name', 'sku', 'description', 'currency', 'price', 'variation', 'value', 'quantity'] as const;

/**
 * The value of one unit: the price changed by the variation percent,
 * `price × (1 + variation/100)`, rounded half up to the cent, exactly
 * (3599.99 with +2 → 3671.99, with −2 → 3527.99).
 */
export function unitValue(price: string, variation: string): string {
  return fromHundredths(applyPercent(toHundredths(price), toHundredths(variation)));
}

/**
 * The line items of an order at /v2/orders/:order_id/line_items: list,
 * create, retrieve, delete (no update, as the real service). A line item is
 * made from an active product of the catalog in a currency the product has
 * a price in, and copies the product's name, sku, description and that
 * price, so later changes to the product leave it as it was sold. Adding
 * or removing one recomputes the order's totals.
 */
export class LineItems {
  private readonly store: RecordStore;
  private readonly byId;
  private readonly ofOrder;
  private readonly list: ListDefinition;

  constructor(private readonly ctx: EngineContext, private readonly orders: Orders, private readonly products: Products) {
    this.store = new RecordStore(ctx, 'line_items', 'line_item', WRITABLE);
    this.byId = ctx.db.prepare('SELECT order_id FROM line_items WHERE id = ?').pluck();
    this.ofOrder = ctx.db.prepare('SELECT id FROM line_items WHERE order_id = ?').pluck();
    this.list = {
      resource: 'line_item',
      from: 'line_items l',
      json: LINE_ITEM_JSON,
      idColumn: 'l.id',
      filters: {
        product_id: { kind: 'id', column: 'l.product_id' },
        currency: { kind: 'string', column: 'l.currency' },
      },
      sorts: { id: 'l.id', value: decimalSortKey('l.value'), quantity: 'l.quantity', created_at: 'l.created_at', updated_at: 'l.updated_at' },
      defaultOrder: 'l.id ASC',
    };
    // A deleted order takes its line items with it (inside the order's transaction).
    ctx.dependents.onDelete((type, id, actorId) => {
      if (type !== 'order') return;
      for (const lineItem of this.ofOrder.all(id) as number[]) this.store.remove(lineItem, actorId);
    });
  }

  /** One line item of the order; 404 when the order has no such line item. */
  json(orderId: number, id: number): string {
    this.requireOrder(orderId);
    if (this.byId.get(id) !== orderId) throw notFound('line_item', id);
    return this.ctx.statements.get(`SELECT ${LINE_ITEM_JSON} FROM line_items l WHERE l.id = ?`).pluck().get(id) as string;
  }

  listPage(orderId: number, query: RawQuery): ListPage {
    this.requireOrder(orderId);
    return runList({ ...this.list, scope: [{ sql: 'l.order_id = ?', params: [orderId] }] }, query, this.ctx.statements);
  }

  create(orderId: number, data: Record<string, unknown>, actor: Actor, fields = FIELDS): number {
    this.requireOrder(orderId);
    const { variation, ...rest } = data;
    const { values, errors } = checkFields('line_item', fields, rest);
    const product = this.productFor(values.product_id, errors);
    const row = {
      order_id: orderId,
      product_id: product?.id,
      name: product?.name,
      sku: product?.sku,
      description: product?.description,
      // Null, as a client may send back, means the default too.
      quantity: values.quantity ?? 1,
      ...this.pricing(product, values.currency, variation, errors),
    };
    if ((row.quantity as number) > MAX_QUANTITY) errors.add('/quantity', 'incorrect_value', `quantity must be at most ${MAX_QUANTITY}.`);
    errors.throwIfAny();
    return this.ctx.db.transaction(() => {
      const id = this.store.insert(row, {}, actor.userId);
      this.orders.lineItemsChanged(orderId, actor.userId);
      return id;
    })();
  }

  delete(orderId: number, id: number, actor: Actor): void {
    this.requireOrder(orderId);
    if (this.byId.get(id) !== orderId) throw notFound('line_item', id);
    this.ctx.db.transaction(() => {
      this.store.remove(id, actor.userId);
      this.orders.lineItemsChanged(orderId, actor.userId);
    })();
  }

  /** `/v2/line_items`, each line item by its own id (an Outpost extension: the form a desktop replica replays). */
  get flat() {
    const orderOf = (id: number) => {
      const orderId = this.byId.get(id) as number | undefined;
      if (orderId === undefined) throw notFound('line_item', id);
      return orderId;
    };
    return {
      json: (id: number) => this.json(orderOf(id), id),
      listPage: (query: RawQuery) => runList({ ...this.list, filters: { ...this.list.filters, order_id: { kind: 'id', column: 'l.order_id' } } }, query, this.ctx.statements),
      create: (data: Record<string, unknown>, actor: Actor) => this.create(this.orderNamedIn(data), data, actor, FLAT_FIELDS),
      delete: (id: number, actor: Actor) => this.delete(orderOf(id), id, actor),
    };
  }

  private requireOrder(orderId: number): void {
    if (!this.orders.exists(orderId)) throw notFound('order', orderId);
  }

  /** The order a flat create names: required, and it must exist (422, since it is a body field there). */
  private orderNamedIn(data: Record<string, unknown>): number {
    const errors = new FieldErrors('line_item');
    const { values } = checkFields('line_item', { order_id: { kind: 'id' } }, { order_id: data.order_id });
    if (typeof values.order_id !== 'number') errors.add('/order_id', 'missing', 'order_id is required: a line item belongs to an order.');
    else if (!this.orders.exists(values.order_id)) errors.add('/order_id', 'incorrect_value', `There is no order with id ${values.order_id}.`);
    errors.throwIfAny();
    return values.order_id as number;
  }

  /** The product named by product_id: required, in the catalog and active. */
  private productFor(productId: unknown, errors: FieldErrors): CatalogEntry | undefined {
    if (errors.has('/product_id')) return undefined;
    if (productId === undefined || productId === null) {
      errors.add('/product_id', productId === null ? 'blank' : 'missing', 'product_id is required: a line item is made from a product.');
      return undefined;
    }
    const product = this.products.find(productId as number);
    if (!product) errors.add('/product_id', 'incorrect_value', `There is no product with id ${String(productId)} in the catalog.`);
    else if (!product.active) errors.add('/product_id', 'incorrect_value', `Product ${product.id} is inactive: line items cannot be made from it.`);
    return product?.active ? product : undefined;
  }

  /**
   * The currency (one the product has a price in), the price copied from the
   * product, the variation (within −max_discount … +max_markup of the
   * product) and the resulting value per unit.
   */
  private pricing(product: CatalogEntry | undefined, currencyInput: unknown, variationInput: unknown, errors: FieldErrors): Record<string, string> {
    const variation = parsePercent(variationInput ?? 0, -100, 1000);
    if (!variation.ok) errors.add('/variation', variation.code, `variation is a percent and ${variation.problem}.`);
    const currency = currencyCode(currencyInput);
    if (currencyInput === undefined || currencyInput === null) errors.add('/currency', 'missing', 'currency is required: a product has prices in several currencies.');
    else if (!currency && !errors.has('/currency')) errors.add('/currency', 'incorrect_value', currencyCodeProblem('currency', currencyInput));
    if (!product || !currency || !variation.ok) return {};
    const price = product.prices.find((p) => p.currency === currency);
    if (!price) {
      const offered = product.prices.map((p) => p.currency).join(', ') || 'none';
      errors.add('/currency', 'incorrect_value', `Product ${product.id} has no price in ${currency} (its currencies: ${offered}).`);
      return {};
    }
    const v = toHundredths(variation.value);
    if (v < -toHundredths(product.maxDiscount) || v > toHundredths(product.maxMarkup)) {
      errors.add('/variation', 'incorrect_value', `variation must be between -${product.maxDiscount} (the product's max_discount) and ${product.maxMarkup} (its max_markup).`);
      return {};
    }
    return { currency, price: price.amount, variation: variation.value, value: unitValue(price.amount, variation.value) };
  }
}
