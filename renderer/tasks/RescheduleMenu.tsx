import { useEffect, useRef, useState, type FocusEvent, type FormEvent, type KeyboardEvent } from 'react';
import { addDays, format } from 'date-fns';
import type { RescheduleTarget } from './reschedule.js';

interface Props {
  /** The id of what the menu moves (the task's content, "3 selected tasks"): read after the button's name. */
  describedBy?: string;
  disabled?: boolean;
  onPick(target: RescheduleTarget): void;
}

const CHOICES = [
  { label: 'Tomorrow', target: { kind: 'tomorrow' } },
  { label: 'Next week', target: { kind: 'next-week' } },
] as const satisfies readonly { label: string; target: RescheduleTarget }[];

/**
 * A "Reschedule" menu button: Tomorrow, Next week, or Pick a date (which
 * turns the menu into a date input and Move). Arrow keys walk the menu;
 * Escape or a click elsewhere closes it and the focus returns to the button.
 */
export function RescheduleMenu({ describedBy, disabled, onPick }: Props) {
  const [open, setOpen] = useState<'menu' | 'day' | null>(null);
  const [day, setDay] = useState('');
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    root.current?.querySelector<HTMLElement>(open === 'menu' ? '[role=menuitem]' : 'input')?.focus({ preventScroll: true });
    const outside = (event: Event) => {
      if (!root.current?.contains(event.target as Node)) setOpen(null);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const close = () => {
    setOpen(null);
    button.current?.focus();
  };
  const pick = (target: RescheduleTarget) => {
    close();
    onPick(target);
  };
  const pickDay = () => {
    setDay(format(addDays(new Date(), 1), 'yyyy-MM-dd'));
    setOpen('day');
  };
  const submitDay = (event: FormEvent) => {
    event.preventDefault();
    if (day) pick({ kind: 'day', day });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape' && open) close();
    else if (open === 'menu' && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) walk(event.key === 'ArrowDown' ? 1 : -1);
    else return;
    event.preventDefault();
    event.stopPropagation();
  };
  const walk = (step: number) => {
    const items = [...(root.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    items[(at + step + items.length) % items.length]?.focus({ preventScroll: true });
  };

  // Tabbing out closes it too. (A blur to nowhere is left to the pointer check: the date input's own calendar blurs so.)
  const leave = (event: FocusEvent<HTMLDivElement>) => {
    if (event.relatedTarget && !event.currentTarget.contains(event.relatedTarget)) setOpen(null);
  };

  return (
    <div className="reschedule" ref={root} onKeyDown={onKeyDown} onBlur={leave}>
      <button ref={button} type="button" className="task-action" aria-haspopup="menu" aria-expanded={open !== null} aria-describedby={describedBy}
        disabled={disabled} onClick={() => (open ? setOpen(null) : setOpen('menu'))}>Reschedule</button>
      {open === 'menu' && (
        <div role="menu" aria-label="Reschedule" className="reschedule-menu">
          {CHOICES.map((choice) => (
            <button key={choice.label} type="button" role="menuitem" onClick={() => pick(choice.target)}>{choice.label}</button>
          ))}
          <button type="button" role="menuitem" onClick={pickDay}>Pick a date</button>
        </div>
      )}
      {open === 'day' && (
        <form className="reschedule-menu reschedule-day" aria-label="Reschedule to a date" onSubmit={submitDay}>
          <label>New due date <input type="date" value={day} required onChange={(e) => setDay(e.target.value)} /></label>
          <div className="actions">
            <button type="submit" className="primary" disabled={!day}>Move</button>
            <button type="button" onClick={close}>Cancel</button>
          </div>
        </form>
      )}
    </div>
  );
}
