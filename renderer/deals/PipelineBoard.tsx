import { useCallback, useEffect, useMemo, useState, type DragEvent } from 'react';
import type { Deal, Stage } from '../../shared/resources/deal.js';
import { api, ApiFailure } from '../api/client.js';
import { Link } from '../router/Link.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { useSession } from '../session/sessionStore.js';
import { fetchPages } from '../leads/usePagedList.js';
import { DEAL_DRAG_TYPE, DealCard } from './DealCard.js';
import { formatMoney, totalsByCurrency } from './money.js';
import { useContactNames } from './useContactNames.js';
import type { Pipelines } from './usePipelines.js';

const PER_PAGE = 100;
/** A column shows at most this many pages of deals; its count and total then say "at least". */
const MAX_PAGES = 10;

interface Column {
  deals: Deal[];
  /** More deals exist than were loaded. */
  more: boolean;
}

async function loadColumns(stages: Stage[]): Promise<Map<number, Column>> {
  const loaded = await Promise.all(stages.map((stage) => fetchPages<Deal>('/v2/deals', { stage_id: stage.id }, PER_PAGE, 1, MAX_PAGES)));
  return new Map(stages.map((stage, i) => [stage.id, { deals: loaded[i].rows, more: loaded[i].hasMore }]));
}

/** The columns with the deal taken out of its column and put in the one of `stageId` (if shown here). */
function withMove(columns: Map<number, Column>, deal: Deal, stageId: number): Map<number, Column> {
  const next = new Map<number, Column>();
  for (const [id, column] of columns) {
    const deals = column.deals.filter((d) => d.id !== deal.id);
    next.set(id, { ...column, deals: id === stageId ? [{ ...deal, stage_id: stageId }, ...deals] : deals });
  }
  return next;
}

function findDeal(columns: Map<number, Column>, id: number): Deal | undefined {
  for (const column of columns.values()) {
    const deal = column.deals.find((d) => d.id === id);
    if (deal) return deal;
  }
  return undefined;
}

/**
 * A pipeline's stages as columns of deal cards, each with its count and total
 * value. A deal moves by drag and drop or with its card's stage select; both
 * PUT the new `stage_id`, showing the move at once and the saved state after.
 */
export function PipelineBoard({ pipelineId, pipelines }: { pipelineId: number; pipelines: Pipelines }) {
  const stages = useMemo(() => pipelines.stages.filter((s) => s.pipeline_id === pipelineId), [pipelines.stages, pipelineId]);
  const currency = useSession((s) => s.account?.currency ?? 'USD');
  const [columns, setColumns] = useState(new Map<number, Column>());
  const [version, setVersion] = useState(0);
  const [moving, setMoving] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const [message, setMessage] = useState<{ text: string; failed: boolean } | null>(null);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useRefreshOnSync(reload);

  useEffect(() => {
    let live = true;
    loadColumns(stages).then((loaded) => live && setColumns(loaded), () => live && setMessage({ text: 'The deals could not be loaded.', failed: true }));
    return () => {
      live = false;
    };
  }, [stages, version]);

  const contactNames = useContactNames([...columns.values()].flatMap((c) => c.deals.map((d) => d.contact_id)));
  const stageName = (id: number) => pipelines.stages.find((s) => s.id === id)?.name ?? 'another stage';

  const move = async (deal: Deal, stageId: number) => {
    if (deal.stage_id === stageId || moving !== null) return;
    setMoving(deal.id);
    setColumns((current) => withMove(current, deal, stageId));
    try {
      await api.update<Deal>(`/v2/deals/${deal.id}`, { stage_id: stageId });
      setMessage({ text: `Moved ${deal.name} to ${stageName(stageId)}.`, failed: false });
    } catch (err) {
      setMessage({ text: err instanceof ApiFailure ? err.message : `${deal.name} could not be moved.`, failed: true });
    } finally {
      setMoving(null);
      reload();
    }
  };

  const dragOver = (event: DragEvent, stageId: number) => {
    if (!event.dataTransfer.types.includes(DEAL_DRAG_TYPE)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    setOver(stageId);
  };
  const drop = (event: DragEvent, stageId: number) => {
    event.preventDefault();
    setOver(null);
    const deal = findDeal(columns, Number(event.dataTransfer.getData(DEAL_DRAG_TYPE)));
    if (deal) void move(deal, stageId);
  };

  return (
    <>
      <p className={message?.failed ? 'form-error' : 'muted board-status'} role="status" aria-live="polite">{message?.text}</p>
      <div className="board">
        {stages.map((stage) => {
          const column = columns.get(stage.id) ?? { deals: [], more: false };
          const totals = totalsByCurrency(column.deals);
          return (
            <section key={stage.id} className={`board-column${over === stage.id ? ' over' : ''}`} aria-label={stage.name} data-stage-id={stage.id}
              onDragOver={(e) => dragOver(e, stage.id)} onDragLeave={() => setOver(null)} onDrop={(e) => drop(e, stage.id)}>
              <header className="board-column-head">
                <h2>{stage.name}</h2>
                <p className="muted column-summary">
                  <span className="deal-count">{column.deals.length}{column.more ? '+' : ''} {column.deals.length === 1 ? 'deal' : 'deals'}</span>
                  {' · '}
                  <span className="deal-total">{totals.length === 0 ? formatMoney('0', currency) : totals.map((t) => formatMoney(t.total, t.currency)).join(' + ')}</span>
                </p>
              </header>
              <ul className="deal-cards">
                {column.deals.map((deal) => (
                  <DealCard key={deal.id} deal={deal} contactName={deal.contact_id === null ? undefined : contactNames.get(deal.contact_id)}
                    pipelines={pipelines} moving={moving === deal.id} onMove={(d, s) => void move(d, s)} />
                ))}
              </ul>
              <Link to={`/deals/new?stage_id=${stage.id}`} className="add-deal" aria-label={`New deal in ${stage.name}`}>+ Add a deal</Link>
            </section>
          );
        })}
      </div>
    </>
  );
}
