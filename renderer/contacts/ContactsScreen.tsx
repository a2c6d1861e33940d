import { useEffect, useState } from 'react';
import { CUSTOMER_STATUSES, PROSPECT_STATUSES } from '../../shared/resources/contact.js';
import { DEFAULT_FILTERS, filtersFromQuery, toQuery, useContactList, type ContactKind, type SortField } from './contactListStore.js';
import { CONTACT_COLUMNS, ContactList } from './ContactList.js';
import { SmartListToolbar } from '../smartLists/SmartListToolbar.js';
import { useSmartListScreen } from '../smartLists/useSmartListScreen.js';
import { useSmartLists } from '../smartLists/smartListStore.js';
import { Link } from '../router/Link.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { CsvExportButton, ExportButton } from '../importExport/ExportButton.js';
import { CSV_IMPORT_PATHS } from '../importExport/importRoutes.js';
import { VCARD_IMPORT_PATH } from '../importExport/openedFiles.js';
import { FilterBar } from '../lists/FilterBar.js';
import { ListCount } from '../lists/ListCount.js';
import { MoreActions } from '../lists/MoreActions.js';
import { usePhone } from '../shell/usePhone.js';
import { capitalized } from '../shell/words.js';
import { BulkBar } from '../bulk/BulkBar.js';
import { BULK_KINDS } from '../bulk/bulkKinds.js';
import { useSelection } from '../bulk/useSelection.js';
import { contactDisplayName } from '../../shared/resources/contact.js';
import { OwnerFilter } from '../owners/OwnerFilter.js';

const SEARCH_DELAY_MS = 150;
/** The phone's sorts (a wide window sorts by the column headers, which a phone's cards do not have). */
const SORTS: { value: `${SortField}:${'asc' | 'desc'}`; label: string }[] = [
  { value: 'name:asc', label: 'Name A–Z' },
  { value: 'name:desc', label: 'Name Z–A' },
  { value: 'updated_at:desc', label: 'Recently updated' },
  { value: 'created_at:desc', label: 'Newest' },
];

export function ContactsScreen() {
  const { filters, setFilters, reload, refresh, rows, total, loading } = useContactList();
  const [search, setSearch] = useState(filters.q);
  const phone = usePhone();
  const query = toQuery(filters, 1);
  const smartList = useSmartListScreen('contact', query, {
    apply: (list) => {
      const next = filtersFromQuery(list.filters, list.sort_by);
      setSearch(next.q);
      setFilters(next);
    },
    reset: () => {
      setSearch('');
      setFilters(DEFAULT_FILTERS);
    },
  });
  // Once an opened smart list counts as shown as saved, the list is read by its id (smartListQuery.pageQuery).
  const savedView = useSmartLists((s) => s.open.baseline);
  useEffect(() => {
    if (savedView !== null) void useContactList.getState().refresh();
  }, [savedView]);
  const selection = useSelection(JSON.stringify(smartList.request));

  // Load on entry, so a contact saved elsewhere shows up.
  useEffect(() => reload(), [reload]);
  // …and again in place when the replica's data changed (a sync, say).
  useRefreshOnSync(() => void refresh());

  // Search as you type, once the typing pauses.
  useEffect(() => {
    if (search === useContactList.getState().filters.q) return;
    const timer = setTimeout(() => setFilters({ q: search }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, setFilters]);

  const active = [filters.kind !== 'all', filters.customer_status, filters.prospect_status, filters.tag.trim(), filters.owner_id].filter(Boolean).length;
  const sort = `${filters.sortBy}:${filters.descending ? 'desc' : 'asc'}`;
  return (
    <section className="screen contacts-screen">
      <header className="screen-header">
        <h1>Contacts</h1>
        <div className="list-actions">
          <MoreActions>
            <Link to="/duplicates/contacts" className="button">Find duplicates</Link>
            <Link to={CSV_IMPORT_PATHS.contact} className="button">Import CSV</Link>
            <Link to={VCARD_IMPORT_PATH} className="button">Import vCard</Link>
            <CsvExportButton resource="contacts" query={toQuery(filters, 1)} what="contacts" />
            <ExportButton path="/v2/contacts/export.vcf" query={toQuery(filters, 1)} label="Export vCard" description="Export the contacts shown as a vCard file" />
          </MoreActions>
          <Link to="/contacts/new" className="button primary">New contact</Link>
        </div>
      </header>
      <SmartListToolbar screen={smartList} columns={CONTACT_COLUMNS} />
      <FilterBar active={active} count={<ListCount shown={rows.length} total={total} loading={loading} />}
        search={<input type="search" placeholder="Search name, email or phone" aria-label="Search contacts" value={search} onChange={(e) => setSearch(e.target.value)} />}>
        <select aria-label="Kind" value={filters.kind} onChange={(e) => setFilters({ kind: e.target.value as ContactKind })}>
          <option value="all">All contacts</option>
          <option value="people">People</option>
          <option value="organizations">Organizations</option>
        </select>
        <select aria-label="Customer status" value={filters.customer_status} onChange={(e) => setFilters({ customer_status: e.target.value as never })}>
          <option value="">Any customer status</option>
          {CUSTOMER_STATUSES.map((s) => <option key={s} value={s}>{s === 'none' ? 'Not a customer' : `${capitalized(s)} customer`}</option>)}
        </select>
        <select aria-label="Prospect status" value={filters.prospect_status} onChange={(e) => setFilters({ prospect_status: e.target.value as never })}>
          <option value="">Any prospect status</option>
          {PROSPECT_STATUSES.map((s) => <option key={s} value={s}>{s === 'none' ? 'Not a prospect' : `${capitalized(s)} prospect`}</option>)}
        </select>
        <input type="text" placeholder="Tag" aria-label="Tag" value={filters.tag} onChange={(e) => setFilters({ tag: e.target.value })} />
        <OwnerFilter value={filters.owner_id} onChange={(owner_id) => setFilters({ owner_id })} />
        {phone && (
          <select aria-label="Sort by" value={sort} onChange={(e) => {
            const [sortBy, direction] = e.target.value.split(':') as [SortField, string];
            setFilters({ sortBy, descending: direction === 'desc' });
          }}>
            {SORTS.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
          </select>
        )}
      </FilterBar>
      <BulkBar kind={BULK_KINDS.contacts} selection={selection} total={total} query={smartList.request}
        nameOf={(id) => { const contact = rows.find((c) => c.id === id); return contact && contactDisplayName(contact); }} onChanged={() => void refresh()} />
      <ContactList key={phone ? 'cards' : 'table'} selection={selection} />
    </section>
  );
}
