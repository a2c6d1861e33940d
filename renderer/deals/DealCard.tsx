import type { DragEvent } from 'react';
import type { Deal, Stage } from '../../shared/resources/deal.js';
import { Link } from '../router/Link.js';
import { formatMoney } from './money.js';
import { MoveMenu } from './MoveMenu.js';

/** The drag data type of a deal card: a drop target accepts only what carries it. */
export const DEAL_DRAG_TYPE = 'application/x-outpost-deal';

interface Props {
  deal: Deal;
  contactName: string | undefined;
  /** The stages of the board's pipeline, where the card's Move menu can send it. */
  stages: Stage[];
  moving: boolean;
  onMove(deal: Deal, stageId: number): void;
}

/**
 * One deal on the board. Dragged to another column to move it; its "Move"
 * menu does the same from the keyboard, a screen reader or a phone.
 */
export function DealCard({ deal, contactName, stages, moving, onMove }: Props) {
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
      {contactName && <div className="muted deal-contact">{contactName}</div>}
      <div className="deal-card-foot">
        <div className="deal-value">{formatMoney(deal.value, deal.currency)}</div>
        <MoveMenu label={`Move ${deal.name} to stage`} stages={stages} current={deal.stage_id} disabled={moving} onMove={(stageId) => onMove(deal, stageId)} />
      </div>
    </li>
  );
}
