import type { ReactNode } from 'react';
import type { QueryValue } from '../../shared/bridge.js';
import type { ReportName } from '../../shared/resources/report.js';
import { ExportButton } from '../importExport/ExportButton.js';
import type { ReportState } from './useReport.js';

interface Props<T> {
  name: ReportName;
  title: string;
  /** What the report counts, in a line under the title. */
  about: ReactNode;
  query: Record<string, QueryValue> | null;
  state: ReportState<T>;
  /** Whether the rows hold nothing worth a chart (every count zero). */
  isEmpty(rows: T[]): boolean;
  emptyText: string;
  children(rows: T[]): ReactNode;
}

/** One report: its title, what it counts, its CSV export, and its chart and table, or why there is none. */
export function ReportSection<T>({ name, title, about, query, state, isEmpty, emptyText, children }: Props<T>) {
  const headingId = `report-${name}-title`;
  return (
    <section className="card report" id={`report-${name}`} aria-labelledby={headingId} aria-busy={state.rows === null && !state.error && !state.refused}>
      <header className="report-header">
        <div>
          <h2 id={headingId}>{title}</h2>
          <p className="muted report-about">{about}</p>
        </div>
        {query && !state.refused && <ExportButton path={`/v2/reports/${name}/export.csv`} query={query} label="Export CSV" description={`Export the ${title.toLowerCase()} report as a CSV file`} />}
      </header>
      <ReportBody state={state} isEmpty={isEmpty} emptyText={emptyText}>{children}</ReportBody>
    </section>
  );
}

function ReportBody<T>({ state, isEmpty, emptyText, children }: Pick<Props<T>, 'state' | 'isEmpty' | 'emptyText' | 'children'>) {
  if (state.refused) return <p className="muted report-state">{state.refused}</p>;
  if (state.error) return <p className="form-error report-state" role="alert">{state.error}</p>;
  if (state.rows === null) return <p className="muted report-state">Loading…</p>;
  if (isEmpty(state.rows)) return <p className="muted report-state">{emptyText}</p>;
  return <div className="report-body">{children(state.rows)}</div>;
}

/** The chart's box: hidden from screen readers, which read the same numbers in the table. */
export function ChartBox({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <figure className="report-chart">
      <div className="chart-area" aria-hidden="true">{children}</div>
      <figcaption className="muted">{caption}</figcaption>
    </figure>
  );
}

/**
 * A report's table, scrolling sideways in its own box (never the page) when a phone is too narrow for it.
 * The box takes the keyboard's focus, so arrow keys scroll it (its cells have nothing else to focus), and
 * is a named region ("Table: …", apart from its report's own region), so a screen reader says what the focus landed on.
 */
export function ReportTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="report-table-wrap" tabIndex={0} role="region" aria-label={`Table: ${label}`}>
      <table className="report-table" aria-label={label}>{children}</table>
    </div>
  );
}
