import type { ReactNode } from 'react';

interface Props {
  title: string;
  /** Shown beside the title (a count), when known. */
  count?: number | string | null;
  /** `danger` marks a count that needs attention (overdue tasks). */
  tone?: 'danger';
  failed?: boolean;
  footer?: ReactNode;
  children: ReactNode;
}

/** One card of the Home screen: a title with its count, the content, and a way on to the full screen. */
export function HomeCard({ title, count, tone, failed, footer, children }: Props) {
  return (
    <section className="card home-card" aria-label={title}>
      <h2>{title} {count !== undefined && count !== null && <span className={`home-count${tone ? ` ${tone}` : ''}`}>{count}</span>}</h2>
      {failed ? <p className="form-error">This could not be loaded.</p> : children}
      {footer && <div className="home-card-footer">{footer}</div>}
    </section>
  );
}
