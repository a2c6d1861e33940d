import { useEffect, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import type { Stage } from '../../shared/resources/deal.js';

interface Props {
  /** The menu button's accessible name ("Move Boardwalk Renewal to stage"). */
  label: string;
  /** The stages it can go to (the deal's own pipeline's), the current one marked. */
  stages: Stage[];
  current: number;
  disabled: boolean;
  onMove(stageId: number): void;
}

const MENU_WIDTH = 170;
const ITEM_HEIGHT = 32;

/**
 * Where the menu shows: fixed to the window (a board column scrolls and would
 * cut it off), under the button or above it when the window ends first.
 */
function placeOf(button: HTMLElement, items: number): CSSProperties {
  const rect = button.getBoundingClientRect();
  const height = items * ITEM_HEIGHT + 10;
  const left = Math.max(8, Math.min(rect.right - MENU_WIDTH, window.innerWidth - MENU_WIDTH - 8));
  const top = rect.bottom + 4 + height <= window.innerHeight ? rect.bottom + 4 : Math.max(8, rect.top - 4 - height);
  return { position: 'fixed', top, left, width: MENU_WIDTH };
}

/**
 * A board card's way to move its deal without dragging: a small "Move"
 * button opening a menu of the pipeline's stages (one menu at a time, so a
 * board of a hundred cards has no hundred drop-downs). Arrow keys walk the
 * menu, Escape or a click elsewhere closes it, focus returns to the button.
 */
export function MoveMenu({ label, stages, current, disabled, onMove }: Props) {
  const [place, setPlace] = useState<CSSProperties | null>(null);
  const open = place !== null;
  const setOpen = (next: boolean) => setPlace(next && button.current ? placeOf(button.current, stages.length) : null);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    root.current?.querySelector<HTMLButtonElement>('[role=menuitem]:not([disabled])')?.focus({ preventScroll: true });
    const outside = (event: Event) => {
      if (!root.current?.contains(event.target as Node)) setPlace(null);
    };
    // Scrolling the board or the column under it: the menu stays by its button.
    const follow = () => button.current && setPlace(placeOf(button.current, stages.length));
    document.addEventListener('pointerdown', outside);
    document.addEventListener('scroll', follow, true);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('scroll', follow, true);
    };
  }, [open, stages.length]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(root.current?.querySelectorAll<HTMLButtonElement>('[role=menuitem]:not([disabled])') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'Escape') close();
    else if (event.key === 'ArrowDown') items[(at + 1) % items.length]?.focus({ preventScroll: true });
    else if (event.key === 'ArrowUp') items[(at - 1 + items.length) % items.length]?.focus({ preventScroll: true });
    else return;
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <div className="move-menu" ref={root} onKeyDown={onKeyDown}>
      <button ref={button} type="button" className="move-button" aria-label={label} aria-haspopup="menu" aria-expanded={open} disabled={disabled}
        onClick={() => setOpen(!open)}>Move</button>
      {open && (
        <div role="menu" aria-label={label} className="menu" style={place}>
          {stages.map((stage) => (
            <button key={stage.id} type="button" role="menuitem" disabled={stage.id === current} aria-current={stage.id === current ? 'true' : undefined}
              onClick={() => {
                close();
                onMove(stage.id);
              }}>{stage.name}</button>
          ))}
        </div>
      )}
    </div>
  );
}
