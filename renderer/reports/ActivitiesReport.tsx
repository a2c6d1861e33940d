import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ActivityReportRow, ReportInterval } from '../../shared/resources/report.js';
import type { QueryValue } from '../../shared/bridge.js';
import { ChartBox, ReportSection, ReportTable } from './ReportSection.js';
import { useReport } from './useReport.js';
import { formatCount } from './reportMoney.js';
import { periodLabel, periodSpan } from './reportPeriod.js';
import { COLORS, SERIES, TICK, countTick, seriesOrder } from './chartTheme.js';

const KINDS = [
  { key: 'calls', label: 'Calls' },
  { key: 'notes', label: 'Notes' },
  { key: 'tasks_completed', label: 'Tasks done' },
  { key: 'visits', label: 'Visits' },
  { key: 'emails_sent', label: 'Emails sent' },
] as const;
const ORDER = seriesOrder(KINDS.map((k) => k.label));
type Kind = (typeof KINDS)[number]['key'];
type Counts = Record<Kind, number>;

/** One line of the table and one bar of the chart: a rep (whole team) or a period (one rep). */
interface Line extends Counts {
  key: string;
  label: string;
  title?: string;
  total: number;
}

const countsOf = (rows: ActivityReportRow[]): Counts =>
  Object.fromEntries(KINDS.map(({ key }) => [key, rows.reduce((n, r) => n + r[key], 0)])) as Counts;
const total = (c: Counts) => KINDS.reduce((n, { key }) => n + c[key], 0);

/** Per rep across the period when several reps are shown; per period when one is. */
function linesOf(rows: ActivityReportRow[], interval: ReportInterval): { byRep: boolean; lines: Line[] } {
  const reps = [...new Map(rows.map((r) => [r.user_id, r.user_name])).entries()];
  if (reps.length > 1) {
    return { byRep: true, lines: reps.map(([id, name]) => {
      const counts = countsOf(rows.filter((r) => r.user_id === id));
      return { key: String(id), label: name, ...counts, total: total(counts) };
    }) };
  }
  return { byRep: false, lines: rows.map((r) => {
    const counts = countsOf([r]);
    return { key: r.period_start, label: periodLabel(r.period_start, interval, true), title: periodSpan(r.period_start, r.period_end), ...counts, total: total(counts) };
  }) };
}

/** Calls, notes, tasks done, visits and sequence emails per rep and period. */
export function ActivitiesReport({ query, interval }: { query: Record<string, QueryValue> | null; interval: ReportInterval }) {
  const state = useReport('activities', query);
  return (
    <ReportSection
      name="activities" title="Activities" query={query} state={state}
      about="Calls made, notes written, tasks done, visits and emails sent by sequences, per rep (or per period for one rep)."
      isEmpty={(rows) => total(countsOf(rows)) === 0}
      emptyText="No activity in this period."
    >
      {(rows) => <ActivitiesView rows={rows} interval={interval} />}
    </ReportSection>
  );
}

function ActivitiesView({ rows, interval }: { rows: ActivityReportRow[]; interval: ReportInterval }) {
  const { byRep, lines } = linesOf(rows, interval);
  const sums = countsOf(rows);
  return (
    <>
      <ChartBox caption={byRep ? 'Activities per rep over the period.' : `Activities per ${interval}.`}>
        <ResponsiveContainer width="100%" height={byRep ? Math.max(160, lines.length * 40 + 60) : 280}>
          <BarChart data={lines} layout={byRep ? 'vertical' : 'horizontal'} margin={{ top: 8, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid vertical={!byRep} horizontal={byRep ? false : true} stroke={COLORS.grid} />
            {byRep ? <XAxis type="number" tick={TICK} tickFormatter={countTick} allowDecimals={false} /> : <XAxis dataKey="label" tick={TICK} minTickGap={8} />}
            {byRep ? <YAxis type="category" dataKey="label" tick={TICK} width={110} /> : <YAxis tick={TICK} tickFormatter={countTick} allowDecimals={false} width={40} />}
            <Tooltip itemSorter={ORDER.tooltip} />
            <Legend itemSorter={ORDER.legend} />
            {KINDS.map(({ key, label }, i) => <Bar key={key} dataKey={key} name={label} stackId="activities" fill={SERIES[i]} isAnimationActive={false} />)}
          </BarChart>
        </ResponsiveContainer>
      </ChartBox>
      <ReportTable label={byRep ? 'Activities per rep' : 'Activities per period'}>
        <thead>
          <tr>
            <th scope="col">{byRep ? 'Rep' : interval === 'month' ? 'Month' : 'Week of'}</th>
            {KINDS.map(({ key, label }) => <th key={key} scope="col" className="number">{label}</th>)}
            <th scope="col" className="number">Total</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr key={line.key}>
              <th scope="row" className={byRep ? undefined : 'nowrap'} title={line.title}>{line.label}</th>
              {KINDS.map(({ key }) => <td key={key} className="number">{formatCount(line[key])}</td>)}
              <td className="number">{formatCount(line.total)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            {KINDS.map(({ key }) => <td key={key} className="number">{formatCount(sums[key])}</td>)}
            <td className="number">{formatCount(total(sums))}</td>
          </tr>
        </tfoot>
      </ReportTable>
    </>
  );
}
