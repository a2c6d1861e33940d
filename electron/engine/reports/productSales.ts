import type { ProductSalesReportRow } from '../../../shared/resources/report.js';
import { CurrencySums, currenciesOf, hundredthsSql } from './money.js';
import type { EngineContext } from '../context.js';
import { ownerOf, rangeOf } from './params.js';
import { ownerClause, valueColumns, type RawRow, type Report } from './report.js';

interface SaleRow { product_id: bigint; currency: string; quantity: bigint; deals: bigint; hundredths: bigint }

/**
 * Line items of deals won in the range (by the day they entered their won
 * stage), per product. A line item's total is its unit value × quantity,
 * before the order's discount (which is the order's, not a product's).
 * Names come from the product while it is listed, else from the line items'
 * copy, as a replica (which drops deleted products) would have them.
 */
const WON_LINE_ITEMS = `FROM stages s JOIN deals d ON d.stage_id = s.id JOIN orders o ON o.deal_id = d.id JOIN line_items li ON li.order_id = o.id
  WHERE s.category = 'won' AND d.last_stage_change_at >= ? AND d.last_stage_change_at < ? AND li.product_id IS NOT NULL`;

/** Per product and currency: one pass over the won deals' line items (covering indexes deals_report and line_items_report). */
const SALES = `SELECT li.product_id, li.currency, sum(li.quantity) AS quantity, count(DISTINCT d.id) AS deals, sum(${hundredthsSql('li.value')} * li.quantity) AS hundredths
  ${WON_LINE_ITEMS}`;
const DEALS = `SELECT li.product_id, count(DISTINCT d.id) AS deals ${WON_LINE_ITEMS}`;

export const productSalesReport: Report<ProductSalesReportRow> = {
  params: ['owner_id', 'from', 'to'],

  rows(ctx, query, actor) {
    const ownerId = ownerOf(ctx, query, actor);
    const range = rangeOf(ctx, query);
    const owner = ownerClause('d.owner_id', ownerId);
    const params = [range.startUtc, range.endUtcExclusive, ...owner.params];
    const products = new Map<number, RawRow<ProductSalesReportRow> & { sums: CurrencySums; currencies: number }>();
    for (const row of ctx.statements.get(`${SALES}${owner.sql} GROUP BY li.product_id, li.currency`).safeIntegers(true).all(...params) as SaleRow[]) {
      const id = Number(row.product_id);
      const product = products.get(id)
        ?? { product_id: id, product_name: '', sku: null, quantity: 0, deals_count: 0, values: {}, sums: new CurrencySums(), currencies: 0 };
      product.quantity += Number(row.quantity);
      product.deals_count += Number(row.deals);
      product.currencies++;
      product.sums.add(row.currency, row.hundredths);
      products.set(id, product);
    }
    // A deal selling a product in two currencies would count twice above: such products are counted again, per deal.
    if ([...products.values()].some((p) => p.currencies > 1)) {
      for (const row of ctx.statements.get(`${DEALS}${owner.sql} GROUP BY li.product_id`).all(...params) as { product_id: number; deals: number }[]) {
        products.get(row.product_id)!.deals_count = row.deals;
      }
    }
    const names = namesOf(ctx, [...products.keys()]);
    return [...products.values()]
      .map(({ sums, currencies: _currencies, ...product }) => ({ ...product, ...names.get(product.product_id), values: sums.json() }))
      .sort((a, b) => b.deals_count - a.deals_count || b.quantity - a.quantity || a.product_name.localeCompare(b.product_name) || a.product_id - b.product_id);
  },

  csv(rows) {
    const currencies = currenciesOf(rows.map((r) => r.values));
    const records = rows.map((r) => ({
      Product: r.product_name, SKU: r.sku, Quantity: r.quantity, Deals: r.deals_count, ...valueColumns('Value', r.values, currencies),
    }));
    return { records, columns: ['Product', 'SKU', 'Quantity', 'Deals'] };
  },
};


/**
 * Names and SKUs: the product's while it is listed, else (a deleted product)
 * the line items' copy. Read apart from the sums, for the products of the
 * report only, so the sums read nothing but covering indexes.
 */
function namesOf(ctx: EngineContext, ids: number[]): Map<number, { product_name: string; sku: string | null }> {
  const sql = `SELECT ids.id, COALESCE(p.name, (SELECT max(li.name) FROM line_items li WHERE li.product_id = ids.id)) AS name,
      CASE WHEN p.id IS NULL THEN (SELECT max(li.sku) FROM line_items li WHERE li.product_id = ids.id) ELSE p.sku END AS sku
    FROM (SELECT CAST(value AS INTEGER) AS id FROM json_each(?)) ids LEFT JOIN products p ON p.id = ids.id AND p.deleted_at IS NULL`;
  const rows = ctx.statements.get(sql).all(JSON.stringify(ids)) as { id: number; name: string; sku: string | null }[];
  return new Map(rows.map((r) => [r.id, { product_name: r.name, sku: r.sku }]));
}
