import type { ReactNode } from 'react';
import { usePhone } from '../shell/usePhone.js';
import './recordPage.css';

interface Props {
  /** The section's heading and accessible name ("Tags"). */
  title: string;
  /**
   * The accessible name, where it says more than the title ("Associated
   * contacts" for "Contacts"); null for a section around a panel that is a
   * named region itself (a deal's order), which then is no region of its own.
   */
  label?: string | null;
  /** How many things it holds, beside the title, so a folded section still tells (null: not known yet). */
  count?: number | null;
  className?: string;
  /** A button or link beside the heading ("New deal"). */
  action?: ReactNode;
  children: ReactNode;
}

/**
 * One panel of a record page's side column (details, deals, tags…): open on
 * wide windows, folded on a phone, where the summary line shows the title and
 * its count and the timeline stays near the top. A <details>, so it opens with
 * a tap or the keyboard and needs no script of its own.
 */
export function RecordSection({ title, label = title, count, className = '', action, children }: Props) {
  const phone = usePhone();
  const Frame = label === null ? 'div' : 'section';
  return (
    <Frame className={`card record-section ${className}`.trim()} aria-label={label ?? undefined}>
      {/* Keyed by the layout: a window crossing the phone width opens or folds it again. */}
      <details key={phone ? 'phone' : 'wide'} open={!phone}>
        <summary>
          <h2>{title}</h2>
          {count !== undefined && count !== null && <span className="count">{count.toLocaleString()}</span>}
        </summary>
        {action && <div className="section-action">{action}</div>}
        <div className="section-body">{children}</div>
      </details>
    </Frame>
  );
}
