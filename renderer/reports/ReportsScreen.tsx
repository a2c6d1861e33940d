import { useMemo } from 'react';
import type { Pipeline } from '../../shared/resources/deal.js';
import { useSession } from '../session/sessionStore.js';
import { useNamedOptions } from '../leads/useNamedOptions.js';
import { ReportFilters } from './ReportFilters.js';
import { useTeam } from './useTeam.js';
import { reportQuery, useReportFilters } from './reportsStore.js';
import { PipelineReport } from './PipelineReport.js';
import { WonLostReport } from './WonLostReport.js';
import { LossReasonsReport } from './LossReasonsReport.js';
import { ActivitiesReport } from './ActivitiesReport.js';
import { LeadConversionReport } from './LeadConversionReport.js';
import { ProductSalesReport } from './ProductSalesReport.js';
import './reports.css';

const JUMPS = [
  { id: 'pipeline', label: 'Pipeline' },
  { id: 'won_lost', label: 'Won and lost' },
  { id: 'loss_reasons', label: 'Loss reasons' },
  { id: 'activities', label: 'Activities' },
  { id: 'lead_conversion', label: 'Lead conversion' },
  { id: 'product_sales', label: 'Sales by product' },
];

/**
 * The reports, one section under the other: an admin sees the team's data
 * (or one rep's), an agent their own. The hub (or the desktop replica,
 * offline) computes every number; the screen draws and tabulates them.
 */
export function ReportsScreen() {
  const me = useSession((s) => s.user);
  const admin = me?.role === 'admin';
  const people = useTeam(admin);
  const pipelines = useNamedOptions<Pipeline>('/v2/pipelines');
  const filters = useReportFilters();
  // Lowest id first: the pipeline the hub's pipeline report defaults to, named in its section.
  const sorted = useMemo(() => [...pipelines].sort((a, b) => a.id - b.id), [pipelines]);
  const first = sorted[0] ?? null;
  const chosen = sorted.find((p) => p.id === filters.pipelineId) ?? first;
  if (!me) return null;

  // An owner chosen as an admin is never sent by an agent signed in after them in the same window.
  const mine = admin ? filters : { ...filters, ownerId: null };
  const query = (needs: Parameters<typeof reportQuery>[1]) => reportQuery(mine, needs, first?.id ?? null);
  return (
    <section className="screen reports-screen">
      <header className="screen-header">
        <h1>Reports</h1>
      </header>
      <ReportFilters users={admin ? people : null} pipelines={sorted} />
      <nav className="section-jumps" aria-label="Jump to a report">
        {JUMPS.map((j) => (
          <button key={j.id} type="button" className="jump" onClick={() => document.getElementById(`report-${j.id}`)?.scrollIntoView({ block: 'start' })}>{j.label}</button>
        ))}
      </nav>
      {/* The pipeline report needs the pipelines first: its stages are one pipeline's. */}
      <PipelineReport query={pipelines.length > 0 ? query({ pipeline: 'required' }) : null} pipelineName={chosen?.name ?? null} />
      <WonLostReport query={query({ pipeline: 'optional', period: true, interval: true })} interval={filters.interval} />
      <LossReasonsReport query={query({ pipeline: 'optional', period: true })} />
      <ActivitiesReport query={query({ period: true, interval: true })} interval={filters.interval} />
      <LeadConversionReport query={query({ period: true })} />
      <ProductSalesReport query={query({ period: true })} />
    </section>
  );
}
