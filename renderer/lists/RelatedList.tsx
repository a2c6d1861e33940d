import type { Key, ReactNode } from 'react';
import type { PagedList } from '../leads/usePagedList.js';
import { DataTable, type Column } from './DataTable.js';
import { ListCount } from './ListCount.js';
import { ListStatus } from './ListStatus.js';

interface Props<T> {
  /** The panel's heading and accessible name ("People", "Deals"). */
  title: string;
  list: PagedList<T>;
  columns: readonly (Column<T> | false | null | undefined)[];
  rowKey(row: T): Key;
  rowLabel?(row: T): string;
  /** A button or link beside the heading ("Add a person"). */
  action?: ReactNode;
  empty: string;
}

/** A record page's panel of related records (an organization's people, a contact's deals): a table, cards on a phone, paged. */
export function RelatedList<T>({ title, list, columns, rowKey, rowLabel, action, empty }: Props<T>) {
  return (
    <section className="card related-list" aria-label={title}>
      <header className="panel-header">
        <h2>{title}</h2>
        {/* The count where there is something to count (the empty list says so itself). */}
        {list.total ? <ListCount shown={list.rows.length} total={list.total} /> : <span className="count" />}
        {action}
      </header>
      {list.rows.length > 0 && <DataTable framed={false} label={title} rows={list.rows} columns={columns} rowKey={rowKey} rowLabel={rowLabel} />}
      <ListStatus list={list} empty={empty} />
    </section>
  );
}
