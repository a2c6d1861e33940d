import { useState, type ReactNode } from 'react';
import './lists.css';

interface Props {
  /** The search field: always in view. */
  search?: ReactNode;
  /** How many of the filters are set, shown on the phone's Filters button. */
  active: number;
  /** The filters (selects, a tag field). */
  children: ReactNode;
  /** The list's count, at the toolbar's end. */
  count: ReactNode;
}

/**
 * A list's search and filters. On a wide window they sit in one row; on a
 * phone the filters fold behind a "Filters" button under the search field,
 * so the list itself is in view without scrolling past five controls.
 */
export function FilterBar({ search, active, children, count }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <div className={`toolbar filter-bar${open ? ' open' : ''}`} role="search">
      {search}
      <button type="button" className="filters-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {active > 0 ? `Filters (${active})` : 'Filters'}
      </button>
      <div className="filters">{children}</div>
      {count}
    </div>
  );
}
