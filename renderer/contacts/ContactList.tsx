import { useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { contactDisplayName, type Contact } from '../../shared/resources/contact.js';
import { useContactList, type SortField } from './contactListStore.js';
import { Link } from '../router/Link.js';
import { StatusBadges } from './StatusBadges.js';
import { EmailLink, PhoneLink } from '../records/ContactPoints.js';
import { usePhone } from '../shell/usePhone.js';
import { formatDateOf } from '../tasks/taskDates.js';
import type { Selection } from '../bulk/useSelection.js';
import { useOwners } from '../owners/useOwners.js';
import '../lists/lists.css';

/**
 * A table row on a wide window; on a phone a card (responsive.css lays the
 * same cells out). Either is measured as it is drawn: a long name or email
 * wraps onto a second line rather than being cut off.
 */
const ROW_HEIGHT = { table: 44, card: 112 };
const COLUMNS: { field: SortField | null; label: string }[] = [
  { field: 'name', label: 'Name' },
  { field: 'email', label: 'Email' },
  { field: null, label: 'Phone' },
  { field: null, label: 'Status' },
  { field: null, label: 'Owner' },
  { field: 'updated_at', label: 'Updated' },
];

/** The columns shown, as a smart list saves them. */
export const CONTACT_COLUMNS = COLUMNS.map((c) => c.label);

/**
 * The contacts table, virtualised: only the rows in view are in the DOM, so
 * scrolling stays smooth at 100 000 contacts. Pages load as the end nears.
 */
export function ContactList({ selection }: { selection?: Selection }) {
  const { rows, nextPage, loading, error, filters, setFilters, loadMore } = useContactList();
  const { nameOf } = useOwners();
  const scroller = useRef<HTMLDivElement>(null);
  const count = rows.length + (nextPage !== null ? 1 : 0);
  // The screen mounts the list afresh when the layout changes, so the size holds for a list's life.
  const cards = usePhone();
  const rowHeight = ROW_HEIGHT[cards ? 'card' : 'table'];
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scroller.current, estimateSize: () => rowHeight, overscan: 12 });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length > 0 ? items[items.length - 1].index : -1;

  useEffect(() => {
    if (lastIndex >= rows.length - 20 && nextPage !== null && !loading) void loadMore();
  }, [lastIndex, rows.length, nextPage, loading, loadMore]);

  const sortBy = (field: SortField) =>
    setFilters(filters.sortBy === field ? { descending: !filters.descending } : { sortBy: field, descending: false });

  return (
    <div className={`contact-table${selection ? ' selectable' : ''}`} role="table" aria-label="Contacts" aria-rowcount={count}>
      <div className="contact-row header" role="row">
        {selection && <PageCheckbox selection={selection} rows={rows} />}
        {COLUMNS.map((column) => (
          <div key={column.label} role="columnheader" className="cell"
            aria-sort={column.field && filters.sortBy === column.field ? (filters.descending ? 'descending' : 'ascending') : undefined}>
            {column.field ? (
              <button type="button" className="sort" onClick={() => sortBy(column.field!)}>
                {column.label}
                {filters.sortBy === column.field && (filters.descending ? ' ▼' : ' ▲')}
              </button>
            ) : column.label}
          </div>
        ))}
      </div>
      <div className="contact-scroller" ref={scroller} data-testid="contact-scroller">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => (
            <div key={item.key} className="contact-row" role="row" data-index={item.index} ref={virtualizer.measureElement}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)` }}>
              {item.index < rows.length ? <ContactCells contact={rows[item.index]} owner={nameOf(rows[item.index].owner_id)} selection={selection} /> : <div className="cell loading muted">Loading…</div>}
            </div>
          ))}
        </div>
        {!loading && rows.length === 0 && !error && <p className="empty">No contacts match.</p>}
        {error && <p className="form-error" role="alert">{error}</p>}
      </div>
    </div>
  );
}

/** Ticks every contact loaded (or none): "select all on this page". */
function PageCheckbox({ selection, rows }: { selection: Selection; rows: Contact[] }) {
  const all = rows.length > 0 && rows.every((c) => selection.has(c.id));
  return (
    <div className="cell select cell-select" role="columnheader">
      <input type="checkbox" aria-label="Select all on this page" checked={all} onChange={() => selection.setMany(rows.map((c) => c.id), !all)} />
    </div>
  );
}

function ContactCells({ contact, owner, selection }: { contact: Contact; owner: string; selection?: Selection }) {
  const name = contactDisplayName(contact) || '(no name)';
  return (
    <>
      {selection && (
        <div className="cell select cell-select" role="cell">
          <input type="checkbox" aria-label={`Select ${name}`} checked={selection.has(contact.id)} onChange={() => selection.toggle(contact.id)} />
        </div>
      )}
      <div className="cell name" role="cell">
        <span className={`kind ${contact.is_organization ? 'org' : 'person'}`} aria-hidden="true">{contact.is_organization ? '▣' : '●'}</span>
        <Link to={`/contacts/${contact.id}`}>{name}</Link>
      </div>
      <div className="cell email" role="cell"><EmailLink email={contact.email} /></div>
      <div className="cell phone" role="cell"><PhoneLink phone={contact.phone ?? contact.mobile} /></div>
      <div className="cell status" role="cell"><StatusBadges contact={contact} /></div>
      {/* A phone's card has no header row: the label says whose it is there. */}
      <div className="cell owner" role="cell"><span className="card-label muted">Owner </span>{owner}</div>
      <div className="cell updated muted" role="cell">{formatDateOf(contact.updated_at)}</div>
    </>
  );
}
