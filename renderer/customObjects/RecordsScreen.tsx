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
        <span className="muted count" aria-live="polite">
          {list.loading ? 'Loading…' : list.count !== null ? `${list.rows.length} of ${list.count} shown` : `${list.rows.length} shown`}
        </span>
      </div>
      {(fieldsError || list.error) && <p className="form-error" role="alert">{fieldsError ?? list.error}</p>}
      {list.rows.length > 0 && (
        <table className="card record-table" aria-label={object.title_pluralized}>
          <thead>
            <tr>
              <th>Name</th>
              {columns.map((f) => <th key={f.key}>{f.title}</th>)}
              <th>Updated</th>
              <th><span className="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {list.rows.map((record) => (
              <tr key={record.id} aria-label={record.name}>
                <td><Link to={editRecordPath(object.key, record.id)}><strong>{record.name}</strong></Link></td>
                {columns.map((f) => <td key={f.key}><Cell field={f} record={record} names={names} /></td>)}
                <td className="muted">{formatTime(record.updated_at)}</td>
                <td>
                  <div className="row-actions">
                    <Link className="button" to={editRecordPath(object.key, record.id)} aria-label={`Edit ${record.name}`}>Edit</Link>
                    <ConfirmDelete name={record.name} question={`Delete ${record.name}?`} onConfirm={() => remove(record)} />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
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

/** One value in the table; a lookup shows its target's name (its id until the name arrives, or when the target is gone). */
function Cell({ field, record, names }: { field: CustomObjectField; record: CustomObjectRecord; names: Map<string, string> }) {
  const value = record.custom_object_fields[field.key];
  if (field.type === 'lookup' && typeof value === 'string' && value !== '') {
    const name = names.get(lookupKey(field.relationship_target_type ?? '', value));
    return name !== undefined ? <span title={`id ${value}`}>{name}</span> : <span className="muted">#{value}</span>;
  }
  return <>{displayValue(field, value)}</>;
}
