import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ReportInterval, WonLostReportRow } from '../../shared/resources/report.js';
import type { QueryValue } from '../../shared/bridge.js';
import { ChartBox, ReportSection, ReportTable } from './ReportSection.js';
import { ReportAmount } from './ReportMoney.js';
import { useReportMoney } from './useReportMoney.js';
import { useReport } from './useReport.js';
import { formatCount, formatRate, rateOf, sumValues } from './reportMoney.js';
import { periodLabel, periodSpan } from './reportPeriod.js';
import { COLORS, TICK, countTick, seriesOrder } from './chartTheme.js';

const ORDER = seriesOrder(['Won', 'Lost', 'Win rate']);

/** Deals won and lost per month or week (by the day they closed), with the share won. */
export function WonLostReport({ query, interval }: { query: Record<string, QueryValue> | null; interval: ReportInterval }) {
  const state = useReport('won_lost', query);
  return (
    <ReportSection
      name="won_lost" title="Won and lost" query={query} state={state}
      about={`Deals won and lost each ${interval}, by the day they were closed, and the share of them won.`}
      isEmpty={(rows) => rows.every((r) => r.won_count + r.lost_count === 0)}
      emptyText="No deals won or lost in this period."
    >
      {(rows) => <WonLostView rows={rows} interval={interval} />}
    </ReportSection>
  );
}

function WonLostView({ rows, interval }: { rows: WonLostReportRow[]; interval: ReportInterval }) {
  const money = useReportMoney();
  const data = rows.map((r) => ({
    period: periodLabel(r.period_start, interval), won: r.won_count, lost: r.lost_count,
    rate: r.win_rate === null ? null : Math.round(Number(r.win_rate) * 100),
  }));
  const won = rows.reduce((n, r) => n + r.won_count, 0);
  const lost = rows.reduce((n, r) => n + r.lost_count, 0);
  return (
    <>
      <ChartBox caption="Bars: deals won and lost; line: win rate (right axis).">
        <ResponsiveContainer width="100%" height={280}>
          <ComposedChart data={data} margin={{ top: 8, right: 0, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid vertical={false} stroke={COLORS.grid} />
            <XAxis dataKey="period" tick={TICK} minTickGap={8} />
            <YAxis yAxisId="deals" tick={TICK} tickFormatter={countTick} allowDecimals={false} width={40} />
            <YAxis yAxisId="rate" orientation="right" tick={TICK} domain={[0, 100]} tickFormatter={(v: number) => `${v}%`} width={44} />
            <Tooltip itemSorter={ORDER.tooltip} formatter={(v, name) => [name === 'Win rate' ? `${String(v)}%` : String(v), name]} />
            <Legend itemSorter={ORDER.legend} />
            <Bar yAxisId="deals" dataKey="won" name="Won" fill={COLORS.primary} isAnimationActive={false} />
            <Bar yAxisId="deals" dataKey="lost" name="Lost" fill={COLORS.lost} isAnimationActive={false} />
            <Line yAxisId="rate" dataKey="rate" name="Win rate" stroke={COLORS.line} strokeWidth={2} dot={{ r: 3 }} connectNulls isAnimationActive={false} />
          </ComposedChart>
        </ResponsiveContainer>
      </ChartBox>
      <ReportTable label="Won and lost by period">
        <thead>
          <tr>
            <th scope="col">{interval === 'month' ? 'Month' : 'Week of'}</th><th scope="col" className="number">Won</th><th scope="col" className="number">Won value</th>
            <th scope="col" className="number">Lost</th><th scope="col" className="number">Lost value</th><th scope="col" className="number">Win rate</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.period_start}>
              <th scope="row" className="nowrap" title={periodSpan(r.period_start, r.period_end)}>{periodLabel(r.period_start, interval, true)}</th>
              <td className="number">{formatCount(r.won_count)}</td>
              <td className="number"><ReportAmount values={r.won_values} money={money} /></td>
              <td className="number">{formatCount(r.lost_count)}</td>
              <td className="number"><ReportAmount values={r.lost_values} money={money} /></td>
              <td className="number">{formatRate(r.win_rate)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td className="number">{formatCount(won)}</td>
            <td className="number"><ReportAmount values={sumValues(rows.map((r) => r.won_values))} money={money} /></td>
            <td className="number">{formatCount(lost)}</td>
            <td className="number"><ReportAmount values={sumValues(rows.map((r) => r.lost_values))} money={money} /></td>
            <td className="number">{formatRate(rateOf(won, won + lost))}</td>
          </tr>
        </tfoot>
      </ReportTable>
    </>
  );
}
