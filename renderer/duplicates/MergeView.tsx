import { useEffect, useState } from 'react';
import { phoneOrText } from '../records/phoneFormat.js';
import { api } from '../api/client.js';
import { refusalText } from '../api/formErrors.js';
import { Link } from '../router/Link.js';
import { useRouter } from '../router/routerStore.js';
import { CONTACT_FIELD_LABELS } from '../records/ContactFieldRows.js';
import { MERGE_FIELDS, isBlankValue, joinedTags, type FieldChoices, type MergeableType } from '../../shared/resources/merge.js';
import { PLURAL, recordName } from './duplicateWords.js';
import './duplicates.css';

type Json = Record<string, unknown> & { id: number; name?: unknown };

const LABELS: Record<string, string> = {
  ...CONTACT_FIELD_LABELS, name: 'Name', first_name: 'First name', last_name: 'Last name', organization_name: 'Organization name',
  owner_id: 'Owner', contact_id: 'Organization', parent_organization_id: 'Parent organization', customer_status: 'Customer status',
  prospect_status: 'Prospect status', status: 'Status', source_id: 'Source', unqualified_reason_id: 'Unqualified reason',
  address: 'Address', billing_address: 'Billing address', shipping_address: 'Shipping address', custom_fields: 'Custom fields',
};
/** Fields merged key by key by default: a blank part of the survivor's is filled from the other. */
const KEYED = new Set(['address', 'billing_address', 'shipping_address', 'custom_fields']);

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
  // An individual's `name` is made of the first and last names; fields alike on both leave nothing to choose.
  const shownFields = MERGE_FIELDS[type].filter((field) => records.some((r) => !isBlankValue(r[field])) && !(field === 'name' && survivor.is_organization === false));
  const fields = shownFields.filter((field) => !sameValue(survivor[field], other[field]));
  const alike = shownFields.filter((field) => sameValue(survivor[field], other[field]));
  const takenFrom = (field: string) => picks[field] ?? (isBlankValue(survivor[field]) ? other.id : survivor.id);

  const merge = async () => {
    setMerging(true);
    setFailure(null);
    const choices: FieldChoices = Object.fromEntries(Object.entries(picks).map(([field, id]) => [field, id === survivor.id ? 'survivor' : 'other']));
    try {
      await api.action(`/v2/${PLURAL[type]}/${survivor.id}/merge`, { merge_with_id: other.id, fields: choices });
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
        {fields.map((field) => (
          <fieldset key={field} className="merge-row">
            <legend>{LABELS[field] ?? field}</legend>
            {records.map((record) => (
              <label key={record.id} className={`merge-value${takenFrom(field) === record.id ? ' chosen' : ''}`}>
                <input type="radio" name={`field-${field}`} checked={takenFrom(field) === record.id} onChange={() => setPicks({ ...picks, [field]: record.id })} />
                <span>{names.of(field, record[field])}</span>
                {KEYED.has(field) && picks[field] === undefined && record.id === survivor.id && !isBlankValue(other[field]) && <span className="muted merge-note"> blanks filled from the other</span>}
              </label>
            ))}
          </fieldset>
        ))}
        {alike.length > 0 && (
          <div className="merge-row">
            <span className="merge-legend">The same on both</span>
            <span className="merge-joined">{alike.map((field) => LABELS[field] ?? field).join(', ')}</span>
          </div>
        )}
        <div className="merge-row">
          <span className="merge-legend">Tags</span>
          <span className="merge-joined">{joinedTags(survivor.tags, other.tags).join(', ') || '—'} <span className="muted">(both records’ tags)</span></span>
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

/** Whether two values of a field are the same (objects compared by their parts). */
function sameValue(a: unknown, b: unknown): boolean {
  if (isBlankValue(a) && isBlankValue(b)) return true;
  return JSON.stringify(a) === JSON.stringify(b);
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
      if (typeof value === 'string' && PHONE_FIELDS.has(field)) return phoneOrText(value);
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

const PHONE_FIELDS = new Set(['phone', 'mobile', 'fax']);

/** A field's value in words: text as it is, an address or custom fields as their parts, ids by number. */
function shown(value: unknown): string {
  if (isBlankValue(value)) return '—';
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value as Record<string, unknown>).filter(([, v]) => !isBlankValue(v)).map(([k, v]) => (KEY_WORDS[k] ? String(v) : `${k}: ${String(v)}`)).join(', ');
  }
  return String(value);
}
const KEY_WORDS: Record<string, true> = { line1: true, city: true, postal_code: true, state: true, country: true };
