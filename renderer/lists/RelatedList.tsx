import type { Key, ReactNode } from 'react';
import type { PagedList } from '../leads/usePagedList.js';
import { DataTable, type Column } from './DataTable.js';
import { ListCount } from './ListCount.js';
import { ListStatus } from './ListStatus.js';
import { RecordSection } from '../records/RecordSection.js';

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

/** A record page's panel of related records (an organization's people, a contact's deals): a card per record in the side column, paged; folded on a phone. */
export function RelatedList<T>({ title, list, columns, rowKey, rowLabel, action, empty }: Props<T>) {
  return (
    <RecordSection title={title} count={list.total} className="related-list" action={action}>
      {/* Where the rows shown are in the whole list, once there are more than one page shows. */}
      {list.hasMore && list.total !== null && <ListCount shown={list.rows.length} total={list.total} />}
      {list.rows.length > 0 && <DataTable framed={false} label={title} rows={list.rows} columns={columns} rowKey={rowKey} rowLabel={rowLabel} className="as-cards" />}
      <ListStatus list={list} empty={empty} />
    </RecordSection>
  );
}
