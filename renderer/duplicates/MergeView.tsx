import { useEffect, useState } from 'react';
import { showPhone } from '../records/phoneFormat.js';
import { api } from '../api/client.js';
import { refusalText } from '../api/formErrors.js';
import { Link } from '../router/Link.js';
import { useRouter } from '../router/routerStore.js';
import { CONTACT_FIELD_LABELS } from '../records/ContactFieldRows.js';
import { isBlankValue, joinedTags, type MergeableType } from '../../shared/resources/merge.js';
import { PLURAL, recordName } from './duplicateWords.js';
import { PHONE_FIELDS, choicesOf, mergeRows, rowValue, type MergeRow } from './mergeRows.js';
import './duplicates.css';

type Json = Record<string, unknown> & { id: number; name?: unknown };

const LABELS: Record<string, string> = {
  ...CONTACT_FIELD_LABELS, name: 'Name', first_name: 'First name', last_name: 'Last name', organization_name: 'Organization name',
  owner_id: 'Owner', contact_id: 'Organization', parent_organization_id: 'Parent organization', customer_status: 'Customer status',
  prospect_status: 'Prospect status', status: 'Status', source_id: 'Source', unqualified_reason_id: 'Unqualified reason',
  address: 'Address', billing_address: 'Billing address', shipping_address: 'Shipping address', custom_fields: 'Custom fields',
};
/** An address's parts, each a row of its own. */
const PART_LABELS: Record<string, string> = { line1: 'street', city: 'city', postal_code: 'postal code', state: 'state', country: 'country' };

/** A row's name: the field's label, or the address's and the part's ("Address: city"). */
const rowLabel = (row: MergeRow) => (row.part ? `${LABELS[row.field]}: ${PART_LABELS[row.part]}` : (LABELS[row.field] ?? row.field));

/** Statuses in the contact form's and list's words ("current" alone would say nothing). */
const STATUS_WORDS: Record<string, Record<string, string>> = {
  customer_status: { none: 'Not a customer', current: 'Current customer', past: 'Past customer' },
  prospect_status: { none: 'Not a prospect', current: 'Current prospect', lost: 'Lost prospect' },
};

/**
 * Merging two records side by side: the rep picks which record survives and,
 * field by field, whose value it keeps (by default the survivor's, its blanks
 * filled from the other: the hub's own rule, shared/resources/merge.ts), then
 * merges and lands on the survivor.
 */
export function MergeView({ type, ids }: { type: MergeableType; ids: [number, number] }) {
  const navigate = useRouter((s) => s.navigate);
  const [records, setRecords] = useState<[Json, Json] | null>(null);
  const [survivorId, setSurvivorId] = useState(ids[0]);
  /** Fields whose value the rep took from a record, by that record's id (so a change of survivor keeps the picks). */
  const [picks, setPicks] = useState<Record<string, number>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [merging, setMerging] = useState(false);

  useEffect(() => {
    let current = true;
    Promise.all(ids.map((id) => api.get<Json>(`/v2/${PLURAL[type]}/${id}`)))
      .then((both) => current && setRecords(both as [Json, Json]), (err: unknown) => current && setFailure(refusalText(err, 'The records could not be loaded.')));
    return () => {
      current = false;
    };
  }, [type, ids]);

  const names = useReferenceNames(records);
  if (!records) return <section className="screen"><p className={failure ? 'error' : 'muted'} role={failure ? 'alert' : undefined}>{failure ?? 'Loading…'}</p></section>;
  const survivor = records.find((r) => r.id === survivorId)!;
  const other = records.find((r) => r.id !== survivorId)!;
  // Rows alike on both (two spellings of one phone number included) leave nothing to choose.
  const { differing, alike } = mergeRows(type, survivor, other);
  const takenFrom = (row: MergeRow) => picks[row.key] ?? (isBlankValue(rowValue(row, survivor)) ? other.id : survivor.id);

  const merge = async () => {
    setMerging(true);
    setFailure(null);
    try {
      await api.action(`/v2/${PLURAL[type]}/${survivor.id}/merge`, { merge_with_id: other.id, fields: choicesOf(picks, survivor.id) });
      navigate(`/${PLURAL[type]}/${survivor.id}`);
    } catch (err) {
      setFailure(refusalText(err, 'The records could not be merged.'));
      setMerging(false);
    }
  };

  return (
    <section className="screen merge-view">
      <header className="screen-header">
        <h1>Merge {type === 'contact' ? 'contacts' : 'leads'}</h1>
        <Link to={`/duplicates/${PLURAL[type]}`} className="button">Back to duplicates</Link>
      </header>
      <p className="muted">Choose the record that stays and, for each field, the value it keeps. Everything on the other record (notes, tasks, calls, deals…) moves to it; the other record is deleted.</p>
      <div className="card merge-table" role="group" aria-label="Fields to keep">
        <div className="merge-row merge-head">
          <span>Keep</span>
          {records.map((record) => (
            <label key={record.id} className="merge-survivor">
              <input type="radio" name="survivor" checked={record.id === survivor.id} onChange={() => setSurvivorId(record.id)} />
              <span className="merge-who"><strong>{recordName(record)}</strong> <span className="muted">#{record.id}{record.id === survivor.id ? ' · stays' : ' · merged into the other'}</span></span>
            </label>
          ))}
        </div>
        {differing.map((row) => (
          <fieldset key={row.key} className="merge-row">
            <legend>{rowLabel(row)}</legend>
            {records.map((record) => {
              const value = rowValue(row, record);
              return (
                <label key={record.id} className={`merge-value${takenFrom(row) === record.id ? ' chosen' : ''}`}>
                  <input type="radio" name={`field-${row.key}`} checked={takenFrom(row) === record.id} onChange={() => setPicks({ ...picks, [row.key]: record.id })} />
                  {isBlankValue(value) ? <span className="merge-empty">empty</span> : <span>{names.of(row.field, value)}</span>}
                  {row.field === 'custom_fields' && picks[row.key] === undefined && record.id === survivor.id && !isBlankValue(other[row.field]) && <span className="muted merge-note"> blanks filled from the other</span>}
                </label>
              );
            })}
          </fieldset>
        ))}
        {alike.length > 0 && (
          <div className="merge-row">
            <span className="merge-legend">Same on both</span>
            <span className="merge-joined">{alike.map(rowLabel).join(', ')}</span>
          </div>
        )}
        <div className="merge-row">
          <span className="merge-legend">Tags</span>
          <span className="merge-joined">{joinedTags(survivor.tags, other.tags).join(', ') || <span className="merge-empty">empty</span>} <span className="muted">(both records’ tags)</span></span>
        </div>
      </div>
      {failure && <p role="alert" className="error">{failure}</p>}
      <div className="actions">
        <button type="button" className="primary" disabled={merging} onClick={() => void merge()}>{merging ? 'Merging…' : `Merge into ${recordName(survivor)}`}</button>
        <Link to={`/duplicates/${PLURAL[type]}`} className="button">Cancel</Link>
      </div>
    </section>
  );
}

/** Ids of other records shown by name: the owner, the organization, the parent organization. */
interface ReferenceNames {
  of(field: string, value: unknown): string;
}

function useReferenceNames(records: [Json, Json] | null): ReferenceNames {
  const [names, setNames] = useState<Map<string, string>>(new Map());
  const key = records ? JSON.stringify(records.map((r) => [r.owner_id, r.contact_id, r.parent_organization_id])) : '';
  useEffect(() => {
    if (!records) return;
    let current = true;
    void loadNames(records).then((found) => current && setNames(found), () => undefined);
    return () => {
      current = false;
    };
    // The records' references are what the names depend on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return {
    of: (field, value) => {
      // Phone numbers in the one format every screen shows them in (records/phoneFormat.ts); the value kept is still as typed.
      if (typeof value === 'string' && PHONE_FIELDS.has(field)) return showPhone(value).text;
      if (typeof value === 'string' && STATUS_WORDS[field]) return STATUS_WORDS[field][value] ?? value;
      if (typeof value !== 'number') return shown(value);
      const kind = field === 'owner_id' ? 'user' : field === 'contact_id' || field === 'parent_organization_id' ? 'contact' : null;
      return (kind && names.get(`${kind}:${value}`)) ?? `#${value}`;
    },
  };
}

async function loadNames(records: Json[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const owners = [...new Set(records.map((r) => r.owner_id).filter((id): id is number => typeof id === 'number'))];
  const organizations = [...new Set(records.flatMap((r) => [r.contact_id, r.parent_organization_id]).filter((id): id is number => typeof id === 'number'))];
  if (owners.length > 0) {
    for (const item of (await api.list<{ id: number; name: string }>('/v2/users', { ids: owners.join(',') })).items) found.set(`user:${item.data.id}`, item.data.name);
  }
  if (organizations.length > 0) {
    for (const item of (await api.list<Json>('/v2/contacts', { ids: organizations.join(',') })).items) found.set(`contact:${item.data.id}`, recordName(item.data));
  }
  return found;
}

/** A field's value in words: text as it is, an address or custom fields as their parts, ids by number. */
function shown(value: unknown): string {
  if (isBlankValue(value)) return 'empty';
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value as Record<string, unknown>).filter(([, v]) => !isBlankValue(v)).map(([k, v]) => (KEY_WORDS[k] ? String(v) : `${k}: ${String(v)}`)).join(', ');
  }
  return String(value);
}
const KEY_WORDS: Record<string, true> = { line1: true, city: true, postal_code: true, state: true, country: true };
