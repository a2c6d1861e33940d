import { useCallback, useEffect, useMemo, useState, type DragEvent, type ReactNode } from 'react';
import type { Deal, Stage } from '../../shared/resources/deal.js';
import { api } from '../api/client.js';
import { Link } from '../router/Link.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { useSession } from '../session/sessionStore.js';
import { fetchPages } from '../leads/usePagedList.js';
import { DEAL_DRAG_TYPE, DealCard } from './DealCard.js';
import { formatMoney, totalsByCurrency } from './money.js';
import { useContactNames } from './useContactNames.js';
import type { Pipelines } from './usePipelines.js';
import { useSideScroll } from './useSideScroll.js';
import './deals.css';
import { refusalText } from '../api/formErrors.js';

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
      setMessage({ text: refusalText(err, `${deal.name} could not be moved.`), failed: true });
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

  const board: BoardContext = {
    currency, contactNames, stages, moving, over,
    dragOver, drop, leave: () => setOver(null), move: (deal, stageId) => void move(deal, stageId),
  };
  const column = (stage: Stage) => <StageColumn key={stage.id} stage={stage} column={columns.get(stage.id) ?? { deals: [], more: false }} board={board} />;
  const closed = stages.filter((s) => CLOSED.includes(s.category));
  return (
    <>
      <p className={message?.failed ? 'form-error' : 'muted board-status'} role="status" aria-live="polite">{message?.text}</p>
      <BoardFrame>
        {stages.filter((s) => !CLOSED.includes(s.category)).map(column)}
        {/* Won, lost and unqualified stacked in one column: deals are dropped there more than read, and the whole board fits a laptop. */}
        {closed.length > 0 && <div className="board-closed">{closed.map(column)}</div>}
      </BoardFrame>
    </>
  );
}

/** The stages of finished deals. */
const CLOSED: readonly string[] = ['won', 'lost', 'unqualified'];

interface BoardContext {
  currency: string;
  contactNames: Map<number, string>;
  stages: Stage[];
  moving: number | null;
  over: number | null;
  dragOver(event: DragEvent, stageId: number): void;
  drop(event: DragEvent, stageId: number): void;
  leave(): void;
  move(deal: Deal, stageId: number): void;
}

/** One stage: its count and total, its deals' cards (a drop target for others), and a way to add one. */
function StageColumn({ stage, column, board }: { stage: Stage; column: Column; board: BoardContext }) {
  const totals = totalsByCurrency(column.deals);
  return (
    <section className={`board-column${board.over === stage.id ? ' over' : ''}`} aria-label={stage.name} data-stage-id={stage.id}
      onDragOver={(e) => board.dragOver(e, stage.id)} onDragLeave={board.leave} onDrop={(e) => board.drop(e, stage.id)}>
      <header className="board-column-head">
        <h2>{stage.name}</h2>
        <p className="muted column-summary">
          <span className="deal-count">{column.deals.length}{column.more ? '+' : ''} {column.deals.length === 1 ? 'deal' : 'deals'}</span>
          {' · '}
          <span className="deal-total">{totals.length === 0 ? formatMoney('0', board.currency) : totals.map((t) => formatMoney(t.total, t.currency)).join(' + ')}</span>
        </p>
      </header>
      <ul className="deal-cards">
        {column.deals.map((deal) => (
          <DealCard key={deal.id} deal={deal} contactName={deal.contact_id === null ? undefined : board.contactNames.get(deal.contact_id)}
            stages={board.stages} moving={board.moving === deal.id} onMove={board.move} />
        ))}
      </ul>
      <Link to={`/deals/new?stage_id=${stage.id}`} className="add-deal" aria-label={`New deal in ${stage.name}`}>+ Add a deal</Link>
    </section>
  );
}

/** The board's columns, scrolling sideways inside it when they do not fit, with a visible hint and buttons that scroll. */
function BoardFrame({ children }: { children: ReactNode }) {
  const { ref, more, scroll } = useSideScroll();
  return (
    <div className={`board-frame${more.left ? ' more-left' : ''}${more.right ? ' more-right' : ''}`}>
      {more.right && <p className="board-hint muted" aria-hidden="true">More stages to the right →</p>}
      <div className="board" ref={ref}>{children}</div>
      {more.left && <button type="button" className="board-scroll left" aria-label="Show earlier stages" onClick={() => scroll('left')}>‹</button>}
      {more.right && <button type="button" className="board-scroll right" aria-label="Show more stages" onClick={() => scroll('right')}>›</button>}
    </div>
  );
}
