import type { Actor, EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { FieldErrors, notFound } from '../problems.js';
import { checkFields, type FieldTable } from './fields.js';
import { runList, type ListDefinition, type ListPage } from './listing.js';
import type { RawQuery } from './params.js';
import { RecordStore, recordJson } from './recordStore.js';
import { jsonObject } from '../db/sqlJson.js';
import { applyPercent, decimalSortKey, fromHundredths, parsePercent, toHundredths } from './decimal.js';
import type { Deals } from './deals.js';
import type { OrderTotal } from '../../../shared/resources/order.js';
import type { SyncSource } from '../sync/sources.js';

/** `discount` is a percent, parsed on its own; `totals` is the service's. */
export const FIELDS: FieldTable = {
  id: { kind: 'readOnly' },
  created_at: { kind: 'readOnly' },
  updated_at: { kind: 'readOnly' },
  totals: { kind: 'readOnly' },
  deal_id: { kind: 'id' },
};

const ORDER_JSON = jsonObject({
  id: 'o.id',
  deal_id: 'o.deal_id',
  discount: 'json(o.discount)',
  totals: 'json(o.totals)',
  created_at: 'o.created_at',
  updated_at: 'o.updated_at',
});

/** Orders as devices receive them (sync/). */
export const ORDER_SYNC: SyncSource = { type: 'order', from: 'orders o', idColumn: 'o.id', json: ORDER_JSON };

const WRITABLE = ['deal_id', 'discount', 'totals'] as const;

interface OrderRow {
  id: number;
  deal_id: number;
  discount: string;
  totals: string;
}

/**
 * Orders at /v2/orders: the list of line items of a deal, at most one per
 * deal (as the real service has it), with a discount on the whole order.
 * Its deal is fixed once created. Deleting an order, or its deal, removes
 * it together with its line items, in one transaction, each logged.
 */
export class Orders {
  private readonly store: RecordStore;
  private readonly byId;
  private readonly byDeal;
  private readonly lineValues;
  private readonly list: ListDefinition;

  constructor(private readonly ctx: EngineContext, private readonly deals: Deals) {
    this.store = new RecordStore(ctx, 'orders', 'order', WRITABLE);
    this.byId = ctx.db.prepare('SELECT * FROM orders WHERE id = ?');
    this.byDeal = ctx.db.prepare('SELECT id FROM orders WHERE deal_id = ?').pluck();
    this.lineValues = ctx.db.prepare('SELECT currency, value, quantity FROM line_items WHERE order_id = ? ORDER BY currency');
    this.list = {
      resource: 'order',
      from: 'orders o',
      json: ORDER_JSON,
      idColumn: 'o.id',
      filters: { deal_id: { kind: 'id', column: 'o.deal_id' } },
      sorts: { id: 'o.id', deal_id: 'o.deal_id', discount: decimalSortKey('o.discount'), created_at: 'o.created_at', updated_at: 'o.updated_at' },
      defaultOrder: 'o.id ASC',
      maxPerPage: 500,
    };
    // A deleted deal takes its order (and so the order's line items) with it.
    ctx.dependents.onDelete((type, id, actorId) => {
      if (type !== 'deal') return;
      const orderId = this.byDeal.get(id) as number | undefined;
      if (orderId !== undefined) this.remove(orderId, actorId);
    });
  }

  json(id: number): string {
    return recordJson(this.ctx, 'order', `SELECT ${ORDER_JSON} FROM orders o WHERE o.id = ?`, id);
  }

  exists(id: number): boolean {
    return this.byId.get(id) !== undefined;
  }

  listPage(query: RawQuery): ListPage {
    return runList(this.list, query, this.ctx.statements);
  }

  create(data: Record<string, unknown>, actor: Actor): number {
    const { discount, ...rest } = data;
    const { values, errors } = checkFields('order', FIELDS, rest);
    const dealId = values.deal_id;
    if (dealId === undefined || dealId === null) {
      if (!errors.has('/deal_id')) errors.add('/deal_id', dealId === null ? 'blank' : 'missing', 'deal_id is required: an order belongs to a deal.');
    } else if (!this.deals.exists(dealId as number)) {
      errors.add('/deal_id', 'incorrect_value', `There is no deal with id ${String(dealId)}.`);
    } else if (this.byDeal.get(dealId) !== undefined) {
      errors.add('/deal_id', 'already_exists', `Deal ${String(dealId)} has an order already: a deal has at most one order.`);
    }
    const row = { deal_id: dealId, discount: this.parseDiscount(discount, errors) ?? '0', totals: '[]' };
    errors.throwIfAny();
    return this.store.insert(row, {}, actor.userId);
  }

  /** `discount` is required; `deal_id` may be sent back, but only unchanged. */
  update(id: number, data: Record<string, unknown>, actor: Actor): void {
    const current = this.byId.get(id) as OrderRow | undefined;
    if (!current) throw notFound('order', id);
    const { discount, ...rest } = data;
    const { values, errors } = checkFields('order', FIELDS, rest);
    if (values.deal_id !== undefined && values.deal_id !== current.deal_id && !errors.has('/deal_id')) {
      errors.add('/deal_id', 'incorrect_value', "deal_id can't be changed: an order stays with the deal it was made for.");
    }
    if (discount === undefined) errors.add('/discount', 'missing', 'discount is required.');
    const parsed = this.parseDiscount(discount, errors);
    errors.throwIfAny();
    const row = { ...current, discount: parsed ?? current.discount };
    this.store.update(id, { ...row, totals: JSON.stringify(this.totals(id, row.discount)) }, actor.userId);
  }

  delete(id: number, actor: Actor): void {
    if (!this.exists(id)) throw notFound('order', id);
    this.remove(id, actor.userId);
  }

  /**
   * Recomputes an order's totals after its line items changed: the order
   * counts as updated (devices receive the new totals). Call inside the
   * line item's transaction.
   */
  lineItemsChanged(id: number, actorId: number): void {
    const current = this.byId.get(id) as OrderRow | undefined;
    if (!current) return;
    const now = isoSeconds(this.ctx.clock.now());
    this.ctx.statements.get('UPDATE orders SET totals = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(this.totals(id, current.discount)), now, id);
    this.ctx.changes.record('order', id, 'updated', actorId);
  }

  /** The order and its line items (dependents registered by lineItems.ts), in one transaction. */
  private remove(id: number, actorId: number): void {
    this.store.remove(id, actorId, () => this.ctx.dependents.deleted('order', id, actorId));
  }

  /**
   * Per currency, by code: the sum of value × quantity of the line items,
   * and that sum after the order's discount (rounded half up to the cent).
   * Exact: hundredths as BigInt.
   */
  private totals(id: number, discount: string): OrderTotal[] {
    const sums = new Map<string, bigint>();
    for (const line of this.lineValues.all(id) as { currency: string; value: string; quantity: number }[]) {
      sums.set(line.currency, (sums.get(line.currency) ?? 0n) + toHundredths(line.value) * BigInt(line.quantity));
    }
    const off = -toHundredths(discount);
    return [...sums].map(([currency, subtotal]) => ({ currency, subtotal: fromHundredths(subtotal), total: fromHundredths(applyPercent(subtotal, off)) }));
  }

  /** A percent from 0 to 100, two decimals at most; undefined when not sent (or wrong: error added). */
  private parseDiscount(input: unknown, errors: FieldErrors): string | undefined {
    if (input === undefined) return undefined;
    const parsed = parsePercent(input, 0, 100);
    if (parsed.ok) return parsed.value;
    errors.add('/discount', parsed.code, `discount is a percent and ${parsed.problem}.`);
    return undefined;
  }
}
