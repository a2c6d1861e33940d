import type { DealSummary } from '../../shared/resources/dealSummary.js';
import { api } from '../api/client.js';
import { Link } from '../router/Link.js';
import { usePipelines } from '../deals/usePipelines.js';
import { ConvertedMoney } from '../money/Money.js';
import { useExchangeRates } from '../money/useExchangeRates.js';
import type { RateTable } from '../../shared/money.js';
import { useCardData } from './useCardData.js';
import { HomeCard } from './HomeCard.js';
import { pipelineRows, type PipelineRows } from './pipelineRows.js';

/** The user's open deals by stage: how many and what they are worth, from the hub's totals (no deal list is loaded). */
export function PipelineGlance({ userId }: { userId: number }) {
  const { pipelines, stages } = usePipelines();
  const { data, failed } = useCardData(() => api.get<DealSummary>('/v2/deals/summary', { owner_id: userId }), String(userId));
  const { table, into } = useExchangeRates();
  const rows = data ? pipelineRows(pipelines, stages, data.stages, into, table) : null;
  const count = rows?.reduce((n, p) => n + p.count, 0) ?? null;
  return (
    <HomeCard title="My pipeline" count={count} failed={failed} footer={<Link to="/deals">Open the board</Link>}>
      {rows && rows.length === 0 && <p className="muted">No open deals.</p>}
      {rows?.map((p) => <PipelineTable key={p.pipeline.id} rows={p} named={rows.length > 1} rates={table} />)}
    </HomeCard>
  );
}

/** Values in the account's currency; a total made of other currencies opens to show them. */
function PipelineTable({ rows, named, rates }: { rows: PipelineRows; named: boolean; rates: RateTable }) {
  const most = Math.max(...rows.stages.map((s) => s.count));
  return (
    <table className="pipeline-glance" aria-label={rows.pipeline.name}>
      {named && <caption>{rows.pipeline.name}</caption>}
      <colgroup><col /><col className="deals" /><col className="value" /></colgroup>
      <thead><tr><th scope="col">Stage</th><th scope="col" className="number">Deals</th><th scope="col" className="number">Value</th></tr></thead>
      <tbody>
        {rows.stages.map(({ stage, count, converted }) => (
          <tr key={stage.id}>
            <th scope="row">
              {stage.name}
              <span className="stage-bar" style={{ width: `${(count / most) * 100}%` }} aria-hidden="true" />
            </th>
            <td className="number">{count}</td>
            <td className="number"><ConvertedMoney total={converted} rates={rates} /></td>
          </tr>
        ))}
      </tbody>
      <tfoot><tr><th scope="row">Open</th><td className="number">{rows.count}</td><td className="number"><ConvertedMoney total={rows.converted} rates={rates} /></td></tr></tfoot>
    </table>
  );
}
