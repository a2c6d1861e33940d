import type { LossReasonReportRow } from '../../shared/resources/report.js';
import type { QueryValue } from '../../shared/bridge.js';
import { ChartBox, ReportSection, ReportTable } from './ReportSection.js';
import { ReportAmount } from './ReportMoney.js';
import { useReportMoney } from './useReportMoney.js';
import { useReport } from './useReport.js';
import { formatCount } from './reportMoney.js';
import { COLORS, countTick } from './chartTheme.js';
import { HorizontalBars } from './HorizontalBars.js';

/** Why deals were lost in the period: deals and their value per loss reason, the most common first. */
export function LossReasonsReport({ query }: { query: Record<string, QueryValue> | null }) {
  const state = useReport('loss_reasons', query);
  return (
    <ReportSection
      name="loss_reasons" title="Loss reasons" query={query} state={state}
      about="Deals lost in the period, by the reason given, the most common first."
      isEmpty={(rows) => rows.length === 0}
      emptyText="No deals lost in this period."
    >
      {(rows) => <LossReasonsView rows={rows} />}
    </ReportSection>
  );
}

function LossReasonsView({ rows }: { rows: LossReasonReportRow[] }) {
  const money = useReportMoney();
  const data = rows.map((r) => ({ label: r.name, value: r.deals_count }));
  return (
    <>
      <ChartBox caption="Deals lost per reason.">
        <HorizontalBars data={data} name="Deals lost" fill={COLORS.lost} rowHeight={34} labelWidth={120} valueTick={countTick} allowDecimals={false} />
      </ChartBox>
      <ReportTable label="Loss reasons">
        <thead><tr><th scope="col">Reason</th><th scope="col" className="number">Deals</th><th scope="col" className="number">Value</th></tr></thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.loss_reason_id ?? 'none'}>
              <th scope="row">{r.name}</th>
              <td className="number">{formatCount(r.deals_count)}</td>
              <td className="number"><ReportAmount values={r.values} money={money} /></td>
            </tr>
          ))}
        </tbody>
      </ReportTable>
    </>
  );
}
