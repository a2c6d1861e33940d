import { useState } from 'react';
import type { QueryValue } from '../../shared/bridge.js';
import type { Deal } from '../../shared/resources/deal.js';
import { formatMoney } from '../../shared/money.js';
import { Link } from '../router/Link.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { OwnerFilter } from '../owners/OwnerFilter.js';
import { useOwners } from '../owners/useOwners.js';
import { usePagedList } from '../leads/usePagedList.js';
import { DataTable } from '../lists/DataTable.js';
import { FilterBar } from '../lists/FilterBar.js';
import { ListCount } from '../lists/ListCount.js';
import { ListStatus } from '../lists/ListStatus.js';
import { formatDateOf } from '../tasks/taskDates.js';
import { SmartListToolbar } from '../smartLists/SmartListToolbar.js';
import { useSmartListScreen } from '../smartLists/useSmartListScreen.js';
import { usePipelines } from './usePipelines.js';
import { DealsViewSwitch } from './DealsViewSwitch.js';
import { DealsTotal } from './DealsTotal.js';
import { useContactNames } from './useContactNames.js';
import { BulkBar } from '../bulk/BulkBar.js';
import { BULK_KINDS } from '../bulk/bulkKinds.js';
import { rowSelection, useSelection } from '../bulk/useSelection.js';

const SORTS = [
  { value: 'updated_at:desc', label: 'Recently updated' },
  { value: 'value:desc', label: 'Largest value' },
  { value: 'name:asc', label: 'Name' },
  { value: 'estimated_close_date:asc', label: 'Closing soonest' },
] as const;

interface Filters {
  pipeline_id: string;
  stage_id: string;
  owner_id: string;
  hot: string;
  tag: string;
  sort_by: string;
}

const DEFAULT_FILTERS: Filters = { pipeline_id: '', stage_id: '', owner_id: '', hot: '', tag: '', sort_by: SORTS[0].value };
const COLUMNS = ['Name', 'Stage', 'Value', 'Organization', 'Contact', 'Owner', 'Hot', 'Updated'];

function toQuery(filters: Filters): Record<string, QueryValue> {
  return {
    pipeline_id: filters.pipeline_id || undefined,
    stage_id: filters.stage_id || undefined,
    owner_id: filters.owner_id || undefined,
    hot: filters.hot || undefined,
    tag: filters.tag.trim() || undefined,
    sort_by: filters.sort_by,
  };
}

/** The screen's filters from a smart list's saved query (the inverse of toQuery). */
function filtersFromQuery(saved: Record<string, string>, sortBy: string | null): Filters {
  const { pipeline_id = '', stage_id = '', owner_id = '', hot = '', tag = '' } = saved;
  return { pipeline_id, stage_id, owner_id, hot, tag, sort_by: sortBy ?? DEFAULT_FILTERS.sort_by };
}

/**
 * The deals as a table (the board's other view): filter by pipeline, stage,
 * owner, hot and tag, sort; smart lists of deals open here. Each deal shows
 * its organization and primary contact (their names read in one batched
 * request a hundred deals, not one a row) and the list the total value of
 * every match in the account's currency.
 */
export function DealsListScreen() {
  const { nameOf } = useOwners();
  const { pipelines, stages } = usePipelines();
  const [filters, setFilters] = useState<Filters>(DEFAULT_FILTERS);
  const smartList = useSmartListScreen('deal', toQuery(filters), {
    apply: (saved) => setFilters(filtersFromQuery(saved.filters, saved.sort_by)),
    reset: () => setFilters(DEFAULT_FILTERS),
  });
  const list = usePagedList<Deal>('/v2/deals', smartList.request);
  // Reloading in place (a sync, a bulk edit) counts the total again too.
  const [version, setVersion] = useState(0);
  const refresh = () => {
    list.refresh();
    setVersion((v) => v + 1);
  };
  useRefreshOnSync(refresh);
  const names = useContactNames(list.rows.flatMap((deal) => [deal.contact_id, deal.organization_id]));
  const selection = useSelection(JSON.stringify(smartList.request));

  const change = (patch: Partial<Filters>) => setFilters({ ...filters, ...patch });
  const stageOf = (id: number) => stages.find((s) => s.id === id);
  const shownStages = filters.pipeline_id ? stages.filter((s) => String(s.pipeline_id) === filters.pipeline_id) : stages;
  const contactLink = (id: number | null) => id !== null && <Link to={`/contacts/${id}`}>{names.get(id) ?? '…'}</Link>;
  const active = [filters.pipeline_id, filters.stage_id, filters.owner_id, filters.hot, filters.tag.trim()].filter(Boolean).length;

  return (
    <section className="screen deals-list-screen">
      <header className="screen-header">
        <h1>Deals</h1>
        <div className="list-actions">
          <DealsViewSwitch current="list" />
          <Link to="/deals/new" className="button primary">New deal</Link>
        </div>
      </header>
      <SmartListToolbar screen={smartList} columns={COLUMNS} />
      <FilterBar active={active} count={<>
        <ListCount shown={list.rows.length} total={list.total} loading={list.loading} />
        <DealsTotal query={smartList.request} version={version} />
      </>}>
        <select aria-label="Pipeline" value={filters.pipeline_id} onChange={(e) => change({ pipeline_id: e.target.value, stage_id: '' })}>
          <option value="">Any pipeline</option>
          {pipelines.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
        </select>
        <select aria-label="Stage" value={filters.stage_id} onChange={(e) => change({ stage_id: e.target.value })}>
          <option value="">Any stage</option>
          {shownStages.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
        </select>
        <OwnerFilter value={filters.owner_id} onChange={(owner_id) => change({ owner_id })} />
        <select aria-label="Hot" value={filters.hot} onChange={(e) => change({ hot: e.target.value })}>
          <option value="">Hot or not</option>
          <option value="true">Hot only</option>
          <option value="false">Not hot</option>
        </select>
        <input type="text" placeholder="Tag" aria-label="Tag" value={filters.tag} onChange={(e) => change({ tag: e.target.value })} />
        <select aria-label="Sort by" value={filters.sort_by} onChange={(e) => change({ sort_by: e.target.value })}>
          {SORTS.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
        </select>
      </FilterBar>
      <BulkBar kind={BULK_KINDS.deals} selection={selection} total={list.total} query={smartList.request}
        nameOf={(id) => list.rows.find((deal) => deal.id === id)?.name} onChanged={refresh} />
      <DataTable label="Deals" rows={list.rows} rowKey={(deal) => deal.id} rowLabel={(deal) => deal.name}
        selection={rowSelection(selection, list.rows)} columns={[
        { label: 'Name', kind: 'title', cell: (deal) => <Link to={`/deals/${deal.id}`}>{deal.name}</Link> },
        { label: 'Stage', cell: (deal) => stageOf(deal.stage_id)?.name ?? '' },
        { label: 'Value', kind: 'number', cell: (deal) => formatMoney(deal.value, deal.currency) },
        { label: 'Organization', cell: (deal) => contactLink(deal.organization_id) },
        { label: 'Contact', cell: (deal) => contactLink(deal.contact_id) },
        { label: 'Owner', cell: (deal) => nameOf(deal.owner_id) },
        { label: 'Hot', cell: (deal) => deal.hot && <span className="badge hot">Hot</span> },
        { label: 'Updated', kind: 'muted', cell: (deal) => formatDateOf(deal.updated_at) },
      ]} />
      <ListStatus list={list} empty="No deals match." />
    </section>
  );
}
