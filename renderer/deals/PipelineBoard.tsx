import { useCallback, useEffect, useMemo, useState, type DragEvent, type ReactNode } from 'react';
import type { Deal, Stage } from '../../shared/resources/deal.js';
import { api } from '../api/client.js';
import { Link } from '../router/Link.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { fetchPages } from '../leads/usePagedList.js';
import { DEAL_DRAG_TYPE, DealCard } from './DealCard.js';
import { convertTotal } from '../../shared/money.js';
import { ConvertedMoney } from '../money/Money.js';
import { useExchangeRates } from '../money/useExchangeRates.js';
import { useContactNames } from './useContactNames.js';
import type { Pipelines } from './usePipelines.js';
import { useSideScroll } from './useSideScroll.js';
import './deals.css';
import { refusalText } from '../api/formErrors.js';
import { useLossReason } from './LossReason.js';

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
 * A pipeline's open stages as columns of deal cards, its won, lost and
 * unqualified stages in a strip below them (the pipeline's order); each with its count and total in
 * the account's currency. A deal moves by drag and drop or with its card's
 * stage menu; both PUT the new `stage_id`, showing the move at once and the
 * saved state after.
 */
export function PipelineBoard({ pipelineId, pipelines }: { pipelineId: number; pipelines: Pipelines }) {
  const stages = useMemo(() => pipelines.stages.filter((s) => s.pipeline_id === pipelineId), [pipelines.stages, pipelineId]);
  const money = useExchangeRates();
  const [shownClosed, setShownClosed] = useState<number | null>(null);
  const [columns, setColumns] = useState(new Map<number, Column>());
  // The stages whose deals the columns hold: until they are these, the board says it is busy (a refresh after a sync keeps them).
  const [loadedFor, setLoadedFor] = useState<Stage[] | null>(null);
  const [version, setVersion] = useState(0);
  const [moving, setMoving] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const [message, setMessage] = useState<{ text: string; failed: boolean } | null>(null);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useRefreshOnSync(reload);
  const lossReason = useLossReason();

  useEffect(() => {
    let live = true;
    loadColumns(stages).then((loaded) => {
      if (!live) return;
      setColumns(loaded);
      setLoadedFor(stages);
    }, () => {
      if (!live) return;
      setMessage({ text: 'The deals could not be loaded.', failed: true });
      setLoadedFor(stages);
    });
    return () => {
      live = false;
    };
  }, [stages, version]);

  const contactNames = useContactNames([...columns.values()].flatMap((c) => c.deals.flatMap((d) => [d.contact_id, d.organization_id])));
  const stageName = (id: number) => pipelines.stages.find((s) => s.id === id)?.name ?? 'another stage';

  // A card shows in its new column only once the move is sure: into a lost stage, after the rep said why (cancelled, it stays put).
  const move = async (deal: Deal, stageId: number) => {
    if (deal.stage_id === stageId || moving !== null) return;
    setMoving(deal.id);
    const answer = await lossReason.ask(stages.find((s) => s.id === stageId), `Why was ${deal.name} lost?`);
    if (!answer) {
      setMoving(null);
      setMessage({ text: `${deal.name} stays in ${stageName(deal.stage_id)}.`, failed: false });
      return;
    }
    setColumns((current) => withMove(current, deal, stageId));
    try {
      await api.update<Deal>(`/v2/deals/${deal.id}`, { stage_id: stageId, ...answer });
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
    money, contactNames, stages, moving, over,
    dragOver, drop, leave: () => setOver(null), move: (deal, stageId) => void move(deal, stageId),
  };
  const columnOf = (stage: Stage) => columns.get(stage.id) ?? { deals: [], more: false };
  const closed = stages.filter((s) => CLOSED.includes(s.category));
  return (
    <>
      <p className={message?.failed ? 'form-error' : 'muted board-status'} role="status" aria-live="polite">{message?.text}</p>
      {lossReason.dialog}
      <BoardFrame busy={loadedFor !== stages}>
        {stages.filter((s) => !CLOSED.includes(s.category)).map((stage) => <StageColumn key={stage.id} stage={stage} column={columnOf(stage)} board={board} />)}
      </BoardFrame>
      {/*
        Won, lost and unqualified in a strip after the board, as they come in the pipeline (on a phone too, and to a
        screen reader): each readable with its count and total, its deals shown on demand.
      */}
      {closed.length > 0 && (
        <div className="closed-strip">
          {closed.map((stage) => (
            <StageColumn key={stage.id} stage={stage} column={columnOf(stage)} board={board}
              expanded={shownClosed === stage.id} onToggle={() => setShownClosed((shown) => (shown === stage.id ? null : stage.id))} />
          ))}
        </div>
      )}
    </>
  );
}

/** The stages of finished deals. */
const CLOSED: readonly string[] = ['won', 'lost', 'unqualified'];

interface BoardContext {
  money: ExchangeRatesView;
  contactNames: Map<number, string>;
  stages: Stage[];
  moving: number | null;
  over: number | null;
  dragOver(event: DragEvent, stageId: number): void;
  drop(event: DragEvent, stageId: number): void;
  leave(): void;
  move(deal: Deal, stageId: number): void;
}

type ExchangeRatesView = ReturnType<typeof useExchangeRates>;

/** A stage's deals totalled in the account's currency, with their originals. */
function stageTotal(deals: readonly Deal[], money: ExchangeRatesView) {
  return convertTotal(deals.map((d) => ({ currency: d.currency, amount: d.value })), money.into, money.table);
}

/**
 * One stage: its count and total (converted into the account's currency),
 * its deals' cards (a drop target for others), and a way to add one. A closed
 * stage (`onToggle` given) shows its cards only when expanded.
 */
function StageColumn({ stage, column, board, expanded, onToggle }: {
  stage: Stage; column: Column; board: BoardContext; expanded?: boolean; onToggle?(): void;
}) {
  const total = stageTotal(column.deals, board.money);
  const closed = onToggle !== undefined;
  const cardsId = `stage-${stage.id}-deals`;
  const showCards = !closed || expanded;
  return (
    <section className={`board-column${closed ? ' closed-stage' : ''}${expanded ? ' expanded' : ''}${board.over === stage.id ? ' over' : ''}`}
      aria-label={stage.name} data-stage-id={stage.id}
      onDragOver={(e) => board.dragOver(e, stage.id)} onDragLeave={board.leave} onDrop={(e) => board.drop(e, stage.id)}>
      <header className="board-column-head">
        <h2>{stage.name}</h2>
        <div className="muted column-summary">
          <span className="deal-count">{column.deals.length}{column.more ? '+' : ''} {column.deals.length === 1 ? 'deal' : 'deals'}</span>
          <span aria-hidden="true"> · </span>
          <ConvertedMoney className="deal-total" total={total} rates={board.money.table} />
        </div>
        {closed && column.deals.length > 0 && (
          <button type="button" className="link closed-toggle" aria-expanded={expanded} aria-controls={cardsId} onClick={onToggle}>
            {expanded ? 'Hide deals' : 'Show deals'}
          </button>
        )}
      </header>
      {showCards && (
        <ul className="deal-cards" id={cardsId}>
          {column.deals.map((deal) => (
            <DealCard key={deal.id} deal={deal} contactName={nameOf(board.contactNames, deal.contact_id)}
              organizationName={nameOf(board.contactNames, deal.organization_id)}
              stages={board.stages} moving={board.moving === deal.id} onMove={board.move} />
          ))}
        </ul>
      )}
      {!closed && <Link to={`/deals/new?stage_id=${stage.id}`} className="add-deal" aria-label={`Add a deal in ${stage.name}`}>+ Add a deal</Link>}
    </section>
  );
}

const nameOf = (names: Map<number, string>, id: number | null) => (id === null ? undefined : names.get(id));

/** The board's columns, scrolling sideways inside it when they do not fit, with a visible hint and buttons that scroll. */
function BoardFrame({ busy, children }: { busy: boolean; children: ReactNode }) {
  const { ref, more, scroll } = useSideScroll();
  return (
    <div className={`board-frame${more.left ? ' more-left' : ''}${more.right ? ' more-right' : ''}`}>
      {more.right && <p className="board-hint muted" aria-hidden="true">More stages to the right →</p>}
      <div className="board" ref={ref} aria-busy={busy}>{children}</div>
      {more.left && <button type="button" className="board-scroll left" aria-label="Show earlier stages" onClick={() => scroll('left')}>‹</button>}
      {more.right && <button type="button" className="board-scroll right" aria-label="Show more stages" onClick={() => scroll('right')}>›</button>}
    </div>
  );
}
