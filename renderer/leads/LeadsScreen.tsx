import { useEffect, useState } from 'react';
import type { QueryValue } from '../../shared/bridge.js';
import { Link } from '../router/Link.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { OwnerFilter } from '../owners/OwnerFilter.js';
import { useOwners } from '../owners/useOwners.js';
import { LEAD_STATUSES, leadDisplayName, type Lead } from '../../shared/resources/lead.js';
import { usePagedList } from './usePagedList.js';
import { CsvExportButton } from '../importExport/ExportButton.js';
import { CSV_IMPORT_PATHS } from '../importExport/importRoutes.js';
import { DataTable } from '../lists/DataTable.js';
import { FilterBar } from '../lists/FilterBar.js';
import { ListCount } from '../lists/ListCount.js';
import { ListStatus } from '../lists/ListStatus.js';
import { MoreActions } from '../lists/MoreActions.js';
import { EmailLink, PhoneLink } from '../records/ContactPoints.js';
import { formatDateOf } from '../tasks/taskDates.js';
import { BulkBar } from '../bulk/BulkBar.js';
import { BULK_KINDS } from '../bulk/bulkKinds.js';
import { rowSelection, useSelection } from '../bulk/useSelection.js';
import { SmartListToolbar } from '../smartLists/SmartListToolbar.js';
import { useSmartListScreen } from '../smartLists/useSmartListScreen.js';

const SEARCH_DELAY_MS = 150;
const SORTS = [
  { value: 'updated_at:desc', label: 'Recently updated' },
  { value: 'created_at:desc', label: 'Newest' },
  { value: 'last_name:asc', label: 'Last name' },
  { value: 'organization_name:asc', label: 'Organization' },
] as const;

interface Filters {
  q: string;
  status: string;
  tag: string;
  owner_id: string;
  sort_by: string;
}

const DEFAULT_FILTERS: Filters = { q: '', status: '', tag: '', owner_id: '', sort_by: SORTS[0].value };
const COLUMNS = ['Name', 'Status', 'Email', 'Phone', 'Owner', 'Updated'];

/** The screen's filters from a smart list's saved query (the inverse of toQuery). */
function filtersFromQuery(saved: Record<string, string>, sortBy: string | null): Filters {
  return { q: saved.q ?? '', status: saved.status ?? '', tag: saved.tag ?? '', owner_id: saved.owner_id ?? '', sort_by: sortBy ?? DEFAULT_FILTERS.sort_by };
}

function toQuery(filters: Filters): Record<string, QueryValue> {
  return {
    q: filters.q.trim() || undefined,
    status: filters.status || undefined,
    tag: filters.tag.trim() || undefined,
    owner_id: filters.owner_id || undefined,
    sort_by: filters.sort_by,
  };
}

/** The leads: search, filter by status, tag and owner, sort; pages load on demand. */
export function LeadsScreen() {
  const { nameOf } = useOwners();
  const [filters, setFilters] = useState<Filters>(DEFAULT_FILTERS);
  const [search, setSearch] = useState('');
  const query = toQuery(filters);
  const show = (next: Filters) => {
    setSearch(next.q);
    setFilters(next);
  };
  const smartList = useSmartListScreen('lead', query, {
    apply: (saved) => show(filtersFromQuery(saved.filters, saved.sort_by)),
    reset: () => show(DEFAULT_FILTERS),
  });
  const list = usePagedList<Lead>('/v2/leads', smartList.request);
  const selection = useSelection(JSON.stringify(smartList.request));
  useRefreshOnSync(list.refresh);

  // Search as you type, once the typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => setFilters((f) => (f.q === search ? f : { ...f, q: search })), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const change = (patch: Partial<Filters>) => setFilters({ ...filters, ...patch });

  const active = [filters.status, filters.tag.trim(), filters.owner_id].filter(Boolean).length;
  return (
    <section className="screen leads-screen">
      <header className="screen-header">
        <h1>Leads</h1>
        <div className="list-actions">
          <MoreActions>
            <Link to="/duplicates/leads" className="button">Find duplicates</Link>
            <Link to={CSV_IMPORT_PATHS.lead} className="button">Import CSV</Link>
            <CsvExportButton resource="leads" query={toQuery(filters)} what="leads" />
          </MoreActions>
          <Link to="/leads/new" className="button primary">New lead</Link>
        </div>
      </header>
      <SmartListToolbar screen={smartList} columns={COLUMNS} />
      <FilterBar active={active} count={<ListCount shown={list.rows.length} total={list.total} loading={list.loading} />}
        search={<input type="search" placeholder="Search name, organization or email" aria-label="Search leads" value={search} onChange={(e) => setSearch(e.target.value)} />}>
        <select aria-label="Status" value={filters.status} onChange={(e) => change({ status: e.target.value })}>
          <option value="">Any status</option>
          {LEAD_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
        <input type="text" placeholder="Tag" aria-label="Tag" value={filters.tag} onChange={(e) => change({ tag: e.target.value })} />
        <OwnerFilter value={filters.owner_id} onChange={(owner_id) => change({ owner_id })} />
        <select aria-label="Sort by" value={filters.sort_by} onChange={(e) => change({ sort_by: e.target.value })}>
          {SORTS.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
        </select>
      </FilterBar>
      <BulkBar kind={BULK_KINDS.leads} selection={selection} total={list.total} query={smartList.request}
        nameOf={(id) => { const lead = list.rows.find((l) => l.id === id); return lead && leadDisplayName(lead); }} onChanged={list.refresh} />
      <DataTable label="Leads" rows={list.rows} rowKey={(lead) => lead.id} rowLabel={(lead) => leadDisplayName(lead) || '(no name)'}
        selection={rowSelection(selection, list.rows)} columns={[
        // The organization under a person's name (a line of its own, not a column to cut off).
        { label: 'Name', kind: 'title', cell: (lead) => (
          <>
            <Link to={`/leads/${lead.id}`}>{leadDisplayName(lead) || '(no name)'}</Link>
            {lead.organization_name && leadDisplayName(lead) !== lead.organization_name && <span className="secondary">{lead.organization_name}</span>}
          </>
        ) },
        { label: 'Status', cell: (lead) => lead.status && <span className="badge">{lead.status}</span> },
        { label: 'Email', cell: (lead) => <EmailLink email={lead.email} /> },
        { label: 'Phone', cell: (lead) => <PhoneLink phone={lead.phone ?? lead.mobile} /> },
        { label: 'Owner', cell: (lead) => nameOf(lead.owner_id) },
        { label: 'Updated', kind: 'muted', cell: (lead) => formatDateOf(lead.updated_at) },
      ]} />
      <ListStatus list={list} empty="No leads match." />
    </section>
  );
}
