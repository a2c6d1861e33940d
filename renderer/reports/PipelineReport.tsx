import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { PipelineReportRow } from '../../shared/resources/report.js';
import type { QueryValue } from '../../shared/bridge.js';
import { formatMoney } from '../deals/money.js';
import { ChartBox, ReportSection, ReportTable } from './ReportSection.js';
import { useReport } from './useReport.js';
import { moneyCaption, plottedTotal, useReportMoney } from './useReportMoney.js';
import { ReportAmount } from './ReportMoney.js';
import { ConvertedMoney } from '../money/Money.js';
import { compactMoney, formatCount, sumValues } from './reportMoney.js';
import { COLORS, TICK, categoryTicks } from './chartTheme.js';
import { usePhone } from '../shell/usePhone.js';

/** Stages whose deals are still open: the forecast is their weighted value. */
const OPEN = new Set(['incoming', 'in_progress']);

/** Deals by stage of one pipeline: how many, their value, and that value weighted by the stage's chance of winning. */
export function PipelineReport({ query, pipelineName }: { query: Record<string, QueryValue> | null; pipelineName: string | null }) {
  const state = useReport('pipeline', query);
  return (
    <ReportSection
      name="pipeline" title="Pipeline" query={query} state={state}
      about={<>Deals in each stage{pipelineName ? <> of <strong>{pipelineName}</strong></> : null}, their value, and the value weighted by each stage’s chance of winning.</>}
      isEmpty={(rows) => rows.every((r) => r.deals_count === 0)}
      emptyText={state.rows?.length === 0 ? 'This pipeline has no stages.' : 'No deals in this pipeline.'}
    >
      {(rows) => <PipelineView rows={rows} />}
    </ReportSection>
  );
}

function PipelineView({ rows }: { rows: PipelineReportRow[] }) {
  const phone = usePhone();
  const money = useReportMoney();
  const currency = money.into;
  const open = rows.filter((r) => OPEN.has(r.category));
  const forecast = sumValues(open.map((r) => r.weighted_values));
  const converted = rows.map((r) => ({ value: money.convert(r.values), weighted: money.convert(r.weighted_values) }));
  const data = rows.map((r, i) => ({ stage: r.stage_name, value: plottedTotal(converted[i].value), weighted: plottedTotal(converted[i].weighted), deals: r.deals_count }));
  return (
    <>
      <div className="report-figure">
        <div className="report-headline"><span className="muted">Forecast</span> <ConvertedMoney total={money.convert(forecast)} rates={money.rates} /></div>
        <ChartBox caption={moneyCaption(money, converted.flatMap((c) => [c.value, c.weighted]))}>
          <ResponsiveContainer width="100%" height={280}>
            <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
              <CartesianGrid vertical={false} stroke={COLORS.grid} />
              <XAxis dataKey="stage" tick={TICK} {...categoryTicks(phone)} />
              <YAxis tick={TICK} tickFormatter={(v: number) => compactMoney(v, currency)} width={64} />
              <Tooltip formatter={(v, name) => [formatMoney(String(v), currency), name]} labelFormatter={(stage, items) => `${stage} · ${formatCount(Number(items[0]?.payload?.deals ?? 0))} deals`} />
              <Legend />
              <Bar dataKey="value" name="Value" fill={COLORS.primary} isAnimationActive={false} />
              <Bar dataKey="weighted" name="Weighted value" fill={COLORS.secondary} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </ChartBox>
      </div>
      <ReportTable label="Pipeline by stage">
        <thead><tr><th scope="col">Stage</th><th scope="col" className="number">Deals</th><th scope="col" className="number">Value</th><th scope="col" className="number">Weighted value</th></tr></thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.stage_id}>
              <th scope="row">{r.stage_name} <span className="muted report-note">{r.likelihood}%</span></th>
              <td className="number">{formatCount(r.deals_count)}</td>
              <td className="number"><ReportAmount values={r.values} money={money} /></td>
              <td className="number"><ReportAmount values={r.weighted_values} money={money} /></td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Open deals (forecast)</th>
            <td className="number">{formatCount(open.reduce((n, r) => n + r.deals_count, 0))}</td>
            <td className="number"><ReportAmount values={sumValues(open.map((r) => r.values))} money={money} /></td>
            <td className="number"><ReportAmount values={forecast} money={money} /></td>
          </tr>
        </tfoot>
      </ReportTable>
    </>
  );
}
