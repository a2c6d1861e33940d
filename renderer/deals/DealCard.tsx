import type { DragEvent } from 'react';
import type { Deal, Stage } from '../../shared/resources/deal.js';
import { Link } from '../router/Link.js';
import { Money } from '../money/Money.js';
import { MoveMenu } from './MoveMenu.js';

/** The drag data type of a deal card: a drop target accepts only what carries it. */
export const DEAL_DRAG_TYPE = 'application/x-outpost-deal';

interface Props {
  deal: Deal;
  contactName: string | undefined;
  /** The deal's organization, when it has one: the company line of the card. */
  organizationName?: string;
  /** The stages of the board's pipeline, where the card's Move menu can send it. */
  stages: Stage[];
  moving: boolean;
  onMove(deal: Deal, stageId: number): void;
}

/**
 * One deal on the board: its name, the organization and contact it is for,
 * its amount (never broken inside the number) and its Move menu. The card's
 * accessible name is its name as shown (the link's text), the rest its
 * description, so what a screen reader says starts with what is seen. Dragged
 * to another column to move it; its "Move" menu does the same from the
 * keyboard, a screen reader or a phone.
 */
export function DealCard({ deal, contactName, organizationName, stages, moving, onMove }: Props) {
  const startDrag = (event: DragEvent<HTMLElement>) => {
    event.dataTransfer.setData(DEAL_DRAG_TYPE, String(deal.id));
    event.dataTransfer.setData('text/plain', deal.name);
    event.dataTransfer.effectAllowed = 'move';
  };
  const id = `deal-card-${deal.id}`;
  const company = [organizationName, contactName === organizationName ? undefined : contactName].filter(Boolean).join(' · ');
  return (
    <li className={`deal-card${moving ? ' moving' : ''}`} draggable onDragStart={startDrag} data-deal-id={deal.id}
      aria-labelledby={`${id}-name`} aria-describedby={`${company ? `${id}-company ` : ''}${id}-value`}>
      <div className="deal-card-head">
        <Link to={`/deals/${deal.id}`} draggable={false} id={`${id}-name`}>{deal.name}</Link>
        {deal.hot && <span className="badge hot" title="Hot deal">Hot</span>}
      </div>
      {company && <div className="muted deal-contact" id={`${id}-company`}>{company}</div>}
      <div className="deal-card-foot">
        <div className="deal-value" id={`${id}-value`}><Money value={deal.value} currency={deal.currency} /></div>
        <MoveMenu label={`Move ${deal.name} to stage`} stages={stages} current={deal.stage_id} disabled={moving} onMove={(stageId) => onMove(deal, stageId)} />
      </div>
    </li>
  );
}
