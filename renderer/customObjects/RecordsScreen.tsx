import { useEffect, useState } from 'react';
import { objectPath, supportApi } from '../api/supportClient.js';
import { useSession } from '../session/sessionStore.js';
import { Link } from '../router/Link.js';
import { ConfirmDelete } from '../shell/ConfirmDelete.js';
import { useCustomObject, useCustomObjects } from './customObjectsStore.js';
import { adminObjectPath, editRecordPath, newRecordPath } from './paths.js';
import { displayValue } from './recordDraft.js';
import { editableFields, type CustomObject, type CustomObjectField, type CustomObjectRecord } from './types.js';
import { lookupKey, useLookupNames } from './useLookupNames.js';
import { useObjectFields } from './useObjectFields.js';
import { useRecordPages } from './useRecordPages.js';
import { DataTable, type Column } from '../lists/DataTable.js';
import { ListCount } from '../lists/ListCount.js';

const SEARCH_DELAY_MS = 250;
/** The table shows the first few fields; the form shows them all. */
const MAX_COLUMNS = 6;

const SORTS = [
  { value: '', label: 'Oldest first' },
  { value: '-created_at', label: 'Newest first' },
  { value: 'name', label: 'Name A–Z' },
  { value: '-name', label: 'Name Z–A' },
  { value: '-updated_at', label: 'Recently updated' },
];

const formatTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** `/objects/:key`: the object's records, or why there are none to show. */
export function RecordsScreen({ objectKey }: { objectKey: string }) {
  const object = useCustomObject(objectKey);
  const { objects, error } = useCustomObjects();
  if (object) return <RecordList key={object.key} object={object} />;
  return (
    <section className="screen records-screen">
      {error ? <p className="form-error" role="alert">{error}</p>
        : objects === null ? <p className="muted">Loading…</p>
          : <p className="empty">There is no custom object with the key {objectKey}.</p>}
    </section>
  );
}

/**
 * The records of one object, a page at a time: search by name and text
 * fields, a sort, a column per field (lookups show the target's name), and
 * edit and delete per record. Agents and admins alike write records.
 */
function RecordList({ object }: { object: CustomObject }) {
  const isAdmin = useSession((s) => s.user?.role === 'admin');
  const { fields, error: fieldsError } = useObjectFields(object.key);
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState('');
  const list = useRecordPages(object.key, query, sort);
  const columns = editableFields(fields ?? []).slice(0, MAX_COLUMNS);
  const names = useLookupNames(columns, list.rows);

  // Search as you type, once the typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => setQuery(typed), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const remove = async (record: CustomObjectRecord) => {
    await supportApi.remove(objectPath(object.key, 'records', record.id));
    list.refresh();
  };

  return (
    <section className="screen records-screen">
      <header className="screen-header">
        <div>
          <h1>{object.title_pluralized}</h1>
          {object.description && <p className="muted">{object.description}</p>}
        </div>
        <div className="actions">
          <Link className="button" to={adminObjectPath(object.key)}>{isAdmin ? 'Fields and settings' : 'Fields'}</Link>
          <Link className="button primary" to={newRecordPath(object.key)}>New {object.title.toLowerCase()}</Link>
        </div>
      </header>
      <div className="toolbar" role="search">
        <input type="search" placeholder={`Search ${object.title_pluralized.toLowerCase()}`} aria-label={`Search ${object.title_pluralized}`}
          value={typed} onChange={(e) => setTyped(e.target.value)} />
        <select aria-label="Sort" value={sort} onChange={(e) => setSort(e.target.value)}>
          {SORTS.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
        </select>
        <ListCount shown={list.rows.length} total={list.count} from={list.from} loading={list.loading} />
      </div>
      {(fieldsError || list.error) && <p className="form-error" role="alert">{fieldsError ?? list.error}</p>}
      {list.rows.length > 0 && (
        <DataTable label={object.title_pluralized} rows={list.rows} rowKey={(record) => record.id} rowLabel={(record) => record.name} columns={[
          { label: 'Name', kind: 'title', cell: (record) => <Link to={editRecordPath(object.key, record.id)}>{record.name}</Link> },
          ...columns.map((f): Column<CustomObjectRecord> => ({ label: f.title, cell: (record) => <Cell field={f} record={record} names={names} /> })),
          { label: 'Updated', kind: 'muted', cell: (record) => formatTime(record.updated_at) },
          {
            label: 'Actions', kind: 'actions', cell: (record) => (
              <div className="row-actions">
                <Link className="button" to={editRecordPath(object.key, record.id)} aria-label={`Edit ${record.name}`}>Edit</Link>
                <ConfirmDelete name={record.name} question={`Delete ${record.name}?`} onConfirm={() => remove(record)} />
              </div>
            ),
          },
        ]} />
      )}
      {!list.loading && !list.error && list.rows.length === 0 && (
        <p className="empty">{query.trim() ? `No ${object.title_pluralized.toLowerCase()} match.` : `No ${object.title_pluralized.toLowerCase()} yet.`}</p>
      )}
      {(list.hasPrevious || list.hasNext) && (
        <nav className="pager" aria-label="Pages">
          <button type="button" onClick={list.previous} disabled={!list.hasPrevious || list.loading}>Previous</button>
          <button type="button" onClick={list.next} disabled={!list.hasNext || list.loading}>Next</button>
        </nav>
      )}
    </section>
  );
}

/** One value in the table; a lookup shows its target's name ("…" until it arrives, "(deleted)" when the target is gone). */
function Cell({ field, record, names }: { field: CustomObjectField; record: CustomObjectRecord; names: Map<string, string> }) {
  const value = record.custom_object_fields[field.key];
  if (field.type === 'lookup' && typeof value === 'string' && value !== '') {
    const name = names.get(lookupKey(field.relationship_target_type ?? '', value));
    if (name === undefined) return <span className="muted">…</span>;
    return name ? <span>{name}</span> : <span className="muted">(deleted)</span>;
  }
  return <>{displayValue(field, value)}</>;
}
