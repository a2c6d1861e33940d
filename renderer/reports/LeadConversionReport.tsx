import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { LeadConversionReportRow } from '../../shared/resources/report.js';
import type { QueryValue } from '../../shared/bridge.js';
import { ChartBox, ReportSection, ReportTable } from './ReportSection.js';
import { useReport } from './useReport.js';
import { formatCount, formatRate, rateOf } from './reportMoney.js';
import { COLORS, TICK, categoryTicks, countTick, seriesOrder } from './chartTheme.js';
import { usePhone } from '../shell/usePhone.js';

const ORDER = seriesOrder(['Leads', 'Converted']);

/** Leads created in the period per source, and how many of them became contacts and deals. */
export function LeadConversionReport({ query }: { query: Record<string, QueryValue> | null }) {
  const state = useReport('lead_conversion', query);
  return (
    <ReportSection
      name="lead_conversion" title="Lead conversion" query={query} state={state}
      about="Leads created in the period, by source, and how many of them were converted."
      isEmpty={(rows) => rows.every((r) => r.leads_count === 0)}
      emptyText="No leads created in this period."
    >
      {(rows) => <LeadConversionView rows={rows} />}
    </ReportSection>
  );
}

function LeadConversionView({ rows }: { rows: LeadConversionReportRow[] }) {
  const phone = usePhone();
  const data = rows.map((r) => ({ source: r.source_name, leads: r.leads_count, converted: r.converted_count }));
  const leads = rows.reduce((n, r) => n + r.leads_count, 0);
  const converted = rows.reduce((n, r) => n + r.converted_count, 0);
  return (
    <>
      <ChartBox caption="Leads and converted leads per source.">
        <ResponsiveContainer width="100%" height={280}>
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid vertical={false} stroke={COLORS.grid} />
            <XAxis dataKey="source" tick={TICK} {...categoryTicks(phone)} />
            <YAxis tick={TICK} tickFormatter={countTick} allowDecimals={false} width={40} />
            <Tooltip itemSorter={ORDER.tooltip} />
            <Legend itemSorter={ORDER.legend} />
            <Bar dataKey="leads" name="Leads" fill={COLORS.secondary} isAnimationActive={false} />
            <Bar dataKey="converted" name="Converted" fill={COLORS.primary} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </ChartBox>
      <ReportTable label="Lead conversion by source">
        <thead><tr><th scope="col">Source</th><th scope="col" className="number">Leads</th><th scope="col" className="number">Converted</th><th scope="col" className="number">Conversion rate</th></tr></thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.source_id ?? 'none'}>
              <th scope="row">{r.source_name}</th>
              <td className="number">{formatCount(r.leads_count)}</td>
              <td className="number">{formatCount(r.converted_count)}</td>
              <td className="number">{formatRate(r.conversion_rate)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td className="number">{formatCount(leads)}</td>
            <td className="number">{formatCount(converted)}</td>
            <td className="number">{formatRate(rateOf(converted, leads))}</td>
          </tr>
        </tfoot>
      </ReportTable>
    </>
  );
}
