import type { Key, ReactNode } from 'react';
import './lists.css';

export interface Column<T> {
  /** The column's header, and on a phone's card the label before the value. */
  label: string;
  cell(row: T): ReactNode;
  /**
   * `title` leads the row's card on a phone (no label before it); `actions`
   * holds the row's buttons (its header only for screen readers); `number`
   * is right-aligned in the table; `muted` is secondary text (dates).
   */
  kind?: 'title' | 'actions' | 'number' | 'muted';
}

interface Props<T> {
  /** The table's accessible name ("Leads"). */
  label: string;
  columns: readonly (Column<T> | false | null | undefined)[];
  rows: readonly T[];
  rowKey(row: T): Key;
  /** Each row's accessible name, where it helps to find one (its record's name). */
  rowLabel?(row: T): string;
  rowClass?(row: T): string | undefined;
  className?: string;
  /** False inside a card of its own (a record page's panel): no frame of its own, and rows divided by lines on a phone. */
  framed?: boolean;
  /** Rows that can be ticked for a bulk action (renderer/bulk): a checkbox first in each row, and one for the page in the header. */
  selection?: RowSelection<T>;
}

export interface RowSelection<T> {
  isSelected(row: T): boolean;
  toggle(row: T): void;
  /** Every row shown is ticked. */
  pageSelected: boolean;
  togglePage(): void;
}

/**
 * A list of records as a table on wide windows and as a card per record on
 * a phone (responsive.css), where each value keeps its column's label
 * beside it: one markup for both, so the two can never disagree.
 * Columns given as `false` are left out (`showCost && {...}`).
 */
export function DataTable<T>({ label, columns, rows, rowKey, rowLabel, rowClass, className = '', framed = true, selection }: Props<T>) {
  const shown = columns.filter((c): c is Column<T> => Boolean(c));
  // The frame scrolls sideways when long values leave the columns no room to shrink, never the screen.
  return (
    <div className="table-frame">
      <table className={[framed ? 'card' : 'plain', 'record-table data-table', className].filter(Boolean).join(' ')} aria-label={label}>
        <thead>
          <tr>
            {selection && (
              <th className="cell-select"><input type="checkbox" aria-label="Select all on this page" checked={selection.pageSelected} onChange={selection.togglePage} /></th>
            )}
            {shown.map((c) => (
              <th key={c.label} className={c.kind === 'number' ? 'cell-number' : undefined}>{c.kind === 'actions' ? <span className="visually-hidden">{c.label}</span> : c.label}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} aria-label={rowLabel?.(row)} className={rowClass?.(row)}>
              {selection && (
                <td className="cell-select"><input type="checkbox" aria-label={`Select ${rowLabel?.(row) ?? 'this row'}`} checked={selection.isSelected(row)} onChange={() => selection.toggle(row)} /></td>
              )}
              {shown.map((c) => <td key={c.label} className={c.kind && `cell-${c.kind}`} data-label={c.label}>{c.cell(row)}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
