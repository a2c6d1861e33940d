import { useState, type FocusEvent, type ReactNode } from 'react';
import './lists.css';

/**
 * A screen's secondary actions (imports, exports): in its header on a wide
 * window; on a phone behind a "More" button, so the header keeps to one line
 * with the main action beside it.
 */
export function MoreActions({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  // Closes once the keyboard or a tap leaves the menu.
  const leave = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget)) setOpen(false);
  };
  return (
    <div className={`more-actions${open ? ' open' : ''}`} onBlur={leave}>
      <button type="button" className="more-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>More</button>
      <div className="more-items">{children}</div>
    </div>
  );
}
