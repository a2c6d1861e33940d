import type { DragEvent } from 'react';
import type { Deal } from '../../shared/resources/deal.js';
import { Link } from '../router/Link.js';
import { formatMoney } from './money.js';
import { StageSelect } from './StageSelect.js';
import type { Pipelines } from './usePipelines.js';

/** The drag data type of a deal card: a drop target accepts only what carries it. */
export const DEAL_DRAG_TYPE = 'application/x-outpost-deal';

interface Props {
  deal: Deal;
  contactName: string | undefined;
  pipelines: Pipelines;
  moving: boolean;
  onMove(deal: Deal, stageId: number): void;
}

/**
 * One deal on the board. Dragged to another column to move it; the "Move to
 * stage" select does the same from the keyboard or a screen reader.
 */
export function DealCard({ deal, contactName, pipelines, moving, onMove }: Props) {
  const startDrag = (event: DragEvent<HTMLElement>) => {
    event.dataTransfer.setData(DEAL_DRAG_TYPE, String(deal.id));
    event.dataTransfer.setData('text/plain', deal.name);
    event.dataTransfer.effectAllowed = 'move';
  };
  return (
    <li className={`deal-card${moving ? ' moving' : ''}`} draggable onDragStart={startDrag} data-deal-id={deal.id} aria-label={deal.name}>
      <div className="deal-card-head">
        <Link to={`/deals/${deal.id}`} draggable={false}>{deal.name}</Link>
        {deal.hot && <span className="badge hot" title="Hot deal">Hot</span>}
      </div>
      <div className="deal-value">{formatMoney(deal.value, deal.currency)}</div>
      {contactName && <div className="muted">{contactName}</div>}
      <StageSelect compact label={`Move ${deal.name} to stage`} value={deal.stage_id} disabled={moving}
        onChange={(stageId) => onMove(deal, stageId)} {...pipelines} />
    </li>
  );
}
