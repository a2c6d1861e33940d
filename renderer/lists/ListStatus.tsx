import type { PagedList } from '../leads/usePagedList.js';

/** Under a paged list: why it is empty or could not load, and "Load more" while more records exist. */
export function ListStatus({ list, empty }: { list: PagedList<unknown>; empty: string }) {
  return (
    <>
      {!list.loading && list.rows.length === 0 && !list.error && <p className="empty">{empty}</p>}
      {list.error && <p className="form-error" role="alert">{list.error}</p>}
      {list.hasMore && (
        <button type="button" className="load-more" onClick={list.loadMore} disabled={list.loading}>{list.loading ? 'Loading…' : 'Load more'}</button>
      )}
    </>
  );
}
