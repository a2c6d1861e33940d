import type { ProductSalesReportRow } from '../../shared/resources/report.js';
import type { QueryValue } from '../../shared/bridge.js';
import { formatMoney } from '../deals/money.js';
import { ChartBox, ReportSection, ReportTable } from './ReportSection.js';
import { useReport } from './useReport.js';
import { moneyCaption, plottedTotal, useReportMoney } from './useReportMoney.js';
import { ReportAmount } from './ReportMoney.js';
import { compactMoney, formatCount } from './reportMoney.js';
import { COLORS } from './chartTheme.js';
import { HorizontalBars } from './HorizontalBars.js';

/** The chart shows the best sellers only: a bar per product of a long catalogue would be unreadable. */
const CHART_TOP = 10;

/** What was sold on deals won in the period: units, deals and value per product (the table in the hub's order: most deals first). */
export function ProductSalesReport({ query }: { query: Record<string, QueryValue> | null }) {
  const state = useReport('product_sales', query);
  return (
    <ReportSection
      name="product_sales" title="Sales by product" query={query} state={state}
      about="Products on the deals won in the period: units sold, deals and value."
      isEmpty={(rows) => rows.length === 0}
      emptyText="No products sold on deals won in this period."
    >
      {(rows) => <ProductSalesView rows={rows} />}
    </ReportSection>
  );
}

function ProductSalesView({ rows }: { rows: ProductSalesReportRow[] }) {
  const money = useReportMoney();
  const currency = money.into;
  const converted = rows.map((r) => ({ row: r, total: money.convert(r.values) }));
  const sorted = [...converted].sort((a, b) => plottedTotal(b.total) - plottedTotal(a.total));
  const data = sorted.slice(0, CHART_TOP).map(({ row, total }) => ({ label: row.product_name, value: plottedTotal(total) }));
  const caption = `${rows.length > CHART_TOP ? `The ${CHART_TOP} best sellers. ` : ''}${moneyCaption(money, converted.map((c) => c.total))}`;
  return (
    <>
      <ChartBox caption={caption}>
        <HorizontalBars data={data} name="Value" fill={COLORS.primary} rowHeight={42} labelWidth={130}
          valueTick={(v) => compactMoney(v, currency)} valueText={(v) => formatMoney(String(v), currency)} />
      </ChartBox>
      <ReportTable label="Sales by product">
        <thead><tr><th scope="col">Product</th><th scope="col" className="number">Units</th><th scope="col" className="number">Deals</th><th scope="col" className="number">Value</th></tr></thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.product_id}>
              <th scope="row">{r.product_name}{r.sku && <div className="muted report-note">{r.sku}</div>}</th>
              <td className="number">{formatCount(r.quantity)}</td>
              <td className="number">{formatCount(r.deals_count)}</td>
              <td className="number"><ReportAmount values={r.values} money={money} /></td>
            </tr>
          ))}
        </tbody>
      </ReportTable>
    </>
  );
}
