import type { DealSummary } from '../../shared/resources/dealSummary.js';
import { api } from '../api/client.js';
import { Link } from '../router/Link.js';
import { usePipelines } from '../deals/usePipelines.js';
import { formatMoney } from '../deals/money.js';
import { useCardData } from './useCardData.js';
import { HomeCard } from './HomeCard.js';
import { pipelineRows, type PipelineRows } from './pipelineRows.js';

/** One line per currency: sums in different currencies are never added up. */
const money = (totals: { currency: string; value: string }[]) => totals.map((t) => <div key={t.currency}>{formatMoney(t.value, t.currency)}</div>);

/** The user's open deals by stage: how many and what they are worth, from the hub's totals (no deal list is loaded). */
export function PipelineGlance({ userId }: { userId: number }) {
  const { pipelines, stages } = usePipelines();
  const { data, failed } = useCardData(() => api.get<DealSummary>('/v2/deals/summary', { owner_id: userId }), String(userId));
  const rows = data ? pipelineRows(pipelines, stages, data.stages) : null;
  const count = rows?.reduce((n, p) => n + p.count, 0) ?? null;
  return (
    <HomeCard title="My pipeline" count={count} failed={failed} footer={<Link to="/deals">Open the board</Link>}>
      {rows && rows.length === 0 && <p className="muted">No open deals.</p>}
      {rows?.map((p) => <PipelineTable key={p.pipeline.id} rows={p} named={rows.length > 1} />)}
    </HomeCard>
  );
}

function PipelineTable({ rows, named }: { rows: PipelineRows; named: boolean }) {
  const most = Math.max(...rows.stages.map((s) => s.count));
  return (
    <table className="pipeline-glance" aria-label={rows.pipeline.name}>
      {named && <caption>{rows.pipeline.name}</caption>}
      <colgroup><col /><col className="deals" /><col className="value" /></colgroup>
      <thead><tr><th scope="col">Stage</th><th scope="col" className="number">Deals</th><th scope="col" className="number">Value</th></tr></thead>
      <tbody>
        {rows.stages.map(({ stage, count, totals }) => (
          <tr key={stage.id}>
            <th scope="row">
              {stage.name}
              <span className="stage-bar" style={{ width: `${(count / most) * 100}%` }} aria-hidden="true" />
            </th>
            <td className="number">{count}</td>
            <td className="number">{money(totals)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot><tr><th scope="row">Open</th><td className="number">{rows.count}</td><td className="number">{money(rows.totals)}</td></tr></tfoot>
    </table>
  );
}
