import { useEffect, useState, type FormEvent } from 'react';
import type { SyncConflict } from '../../shared/resources/replica.js';
import type { CustomFieldDefinition } from '../../shared/resources/customField.js';
import type { Address } from '../../shared/resources/address.js';
import { api, ApiFailure } from '../api/client.js';
import { formErrorsOf } from '../api/formErrors.js';
import { showPhone } from '../records/phoneFormat.js';
import { formatDay, formatWhen } from '../tasks/taskDates.js';
import { useSession } from '../session/sessionStore.js';
import { addressLine, fieldKind, fieldLabel, fieldLabels, inputOf, isEmpty, valueOf, type FieldKind } from './conflictFields.js';
import { useConflicts, type ConflictChoice } from './useConflicts.js';
import { useNames } from './useNames.js';

/** Custom field definitions asked for, by resource type (a list field's choices, a number field's input). */
const definitionsAsked = new Map<string, Promise<CustomFieldDefinition[]>>();

function definitionsOf(type: string): Promise<CustomFieldDefinition[]> {
  let definitions = definitionsAsked.get(type);
  if (!definitions) {
    definitions = api.list<CustomFieldDefinition>(`/v2/${type}/custom_fields`, { per_page: 100 }).then((page) => page.items.map((i) => i.data), () => {
      definitionsAsked.delete(type);
      return [];
    });
    definitionsAsked.set(type, definitions);
  }
  return definitions;
}

/** The definition of a conflict's custom field (`custom_fields.Size`), once read; undefined for any other field. */
function useDefinition(type: string, field: string): CustomFieldDefinition | undefined {
  const name = field.startsWith('custom_fields.') ? field.slice('custom_fields.'.length) : null;
  const [found, setFound] = useState<{ key: string; definition: CustomFieldDefinition | undefined } | null>(null);
  const key = `${type}:${name}`;
  useEffect(() => {
    if (name === null) return;
    let live = true;
    void definitionsOf(type).then((all) => live && setFound({ key, definition: all.find((d) => d.name === name) }));
    return () => {
      live = false;
    };
  }, [type, name, key]);
  return found?.key === key ? found.definition : undefined;
}

/** A field's value as people read it: a name for another record's id, a day or a moment as dates read, "(empty)" for nothing. */
export function FieldValue({ value, kind }: { value: unknown; kind: FieldKind }) {
  const path = kind.kind === 'reference' && typeof value === 'number' ? `${kind.collection}/${value}` : null;
  const names = useNames(path ? [path] : []);
  if (isEmpty(value)) return <span className="muted empty-value">(empty)</span>;
  if (path) return <>{names.get(path) ?? `#${String(value)}`}</>;
  if (kind.kind === 'choice') return <>{kind.options.find((o) => o.value === value)?.label ?? String(value)}</>;
  if (typeof value === 'boolean') return <>{value ? 'Yes' : 'No'}</>;
  if (Array.isArray(value)) return <>{value.map(String).join(', ')}</>;
  if (typeof value === 'object') return <>{addressLine(value as Partial<Address>) || JSON.stringify(value)}</>;
  if (kind.kind === 'date' && typeof value === 'string') return <>{formatDay(value)}</>;
  if (kind.kind === 'datetime' && typeof value === 'string') return <>{formatWhen(value)}</>;
  if (kind.kind === 'text' && kind.input === 'tel' && typeof value === 'string') return <>{showPhone(value).text}</>;
  return <>{String(value)}</>;
}

/** Who changed the hub's value, in words: a colleague by name, "you" (on another device), or just "on the hub". */
function useChangedBy(userId: number | null): string {
  const me = useSession((s) => s.user?.id ?? null);
  const names = useNames(userId !== null && userId !== me ? [`/v2/users/${userId}`] : []);
  if (userId === null) return 'Changed on the hub';
  if (userId === me) return 'Changed by you on the hub or another device';
  return `Changed by ${names.get(`/v2/users/${userId}`) ?? 'a colleague'} on the hub`;
}

/** What a refused choice says, by the field's input: the field's validation message in the form's words. */
function refusalOf(err: unknown, type: string, field: string): string {
  if (!(err instanceof ApiFailure)) return 'Your choice could not be saved. Try again.';
  return Object.values(formErrorsOf(err, fieldLabels(type, field), 'Your choice could not be saved. Try again.')).join(' ');
}

/**
 * One field changed both on this device and on the hub: the two values side
 * by side, who changed the hub's and when, and the rep's three ways out —
 * keep mine, keep theirs, or type another value (refused values are said by
 * the input, in plain words).
 */
export function ConflictItem({ conflict, resolve, level = 3 }: {
  conflict: SyncConflict; resolve(conflict: SyncConflict, choice: ConflictChoice): Promise<void>;
  /** The field's heading level: 3 on a record's page, 4 under the record's name in Sync issues. */
  level?: 3 | 4;
}) {
  const Heading = level === 4 ? 'h4' : 'h3';
  const { resource_type: type, field } = conflict;
  const definition = useDefinition(type, field);
  const kind = fieldKind(type, field, [conflict.yours.value, conflict.theirs.value], definition);
  const label = fieldLabel(type, field);
  const changedBy = useChangedBy(conflict.theirs.changed_by_id);
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [inputError, setInputError] = useState<string | null>(null);
  const inputId = `conflict-${conflict.id}-value`;

  const choose = async (choice: ConflictChoice, doing: string) => {
    setBusy(doing);
    setError(null);
    setInputError(null);
    try {
      await resolve(conflict, choice);
    } catch (err) {
      const message = refusalOf(err, type, field);
      if ('value' in choice) setInputError(message);
      else setError(message);
      setBusy(null);
    }
  };
  const startEditing = () => {
    setText(inputOf(kind, conflict.yours.value));
    setInputError(null);
    setEditing(true);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void choose({ value: valueOf(kind, text) }, 'other');
  };

  return (
    <li className="conflict" aria-label={label}>
      <Heading className="conflict-field">{label}</Heading>
      <dl className="conflict-values">
        <div className="conflict-side yours">
          <dt>Yours</dt>
          <dd>
            <span className="conflict-value"><FieldValue value={conflict.yours.value} kind={kind} /></span>
            <span className="muted when">Changed on this device, {formatWhen(conflict.yours.changed_at)}</span>
          </dd>
        </div>
        <div className="conflict-side theirs">
          <dt>Theirs <span className="muted">(shown now)</span></dt>
          <dd>
            <span className="conflict-value"><FieldValue value={conflict.theirs.value} kind={kind} /></span>
            <span className="muted when">{changedBy}{conflict.theirs.changed_at ? `, ${formatWhen(conflict.theirs.changed_at)}` : ''}</span>
          </dd>
        </div>
      </dl>
      {editing ? (
        <form className="conflict-other" onSubmit={submit} noValidate>
          <label htmlFor={inputId}>Another value for {label}</label>
          <div className="conflict-other-row">
            <OtherValueInput id={inputId} kind={kind} value={text} invalid={Boolean(inputError)} onChange={(changed) => {
              setText(changed);
              setInputError(null);
            }} />
            {inputError && <span className="field-error" role="alert">{inputError}</span>}
            <div className="actions">
              <button type="submit" className="primary" disabled={busy !== null}>{busy === 'other' ? 'Saving…' : 'Use this value'}</button>
              <button type="button" disabled={busy !== null} onClick={() => setEditing(false)}>Cancel</button>
            </div>
          </div>
        </form>
      ) : (
        <div className="actions conflict-actions">
          <button type="button" disabled={busy !== null} onClick={() => void choose({ keep: 'yours' }, 'yours')}>
            {busy === 'yours' ? 'Keeping…' : 'Keep mine'}
          </button>
          <button type="button" disabled={busy !== null} onClick={() => void choose({ keep: 'theirs' }, 'theirs')}>
            {busy === 'theirs' ? 'Keeping…' : 'Keep theirs'}
          </button>
          {kind.kind !== 'fixed' && kind.kind !== 'reference' && <button type="button" disabled={busy !== null} onClick={startEditing}>Use another value</button>}
        </div>
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
    </li>
  );
}

/** The input a third value is typed in, by the field's kind. */
function OtherValueInput({ id, kind, value, invalid, onChange }: { id: string; kind: FieldKind; value: string; invalid: boolean; onChange(value: string): void }) {
  const common = { id, value, 'aria-invalid': invalid, autoFocus: true };
  if (kind.kind === 'choice') {
    return (
      <select {...common} onChange={(e) => onChange(e.target.value)}>
        <option value="">—</option>
        {kind.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
    );
  }
  if (kind.kind === 'text' && kind.input === 'textarea') return <textarea {...common} rows={3} onChange={(e) => onChange(e.target.value)} />;
  const type = kind.kind === 'number' ? 'number' : kind.kind === 'date' ? 'date' : kind.kind === 'datetime' ? 'datetime-local' : kind.kind === 'text' ? kind.input : 'text';
  return <input {...common} type={type} onChange={(e) => onChange(e.target.value)} />;
}

/** Conflicts as a list, each with its choices. */
export function ConflictList({ conflicts, resolve, label, level }: {
  conflicts: SyncConflict[]; resolve(conflict: SyncConflict, choice: ConflictChoice): Promise<void>; label: string; level?: 3 | 4;
}) {
  return (
    <ul className="conflicts" aria-label={label}>
      {conflicts.map((c) => <ConflictItem key={c.id} conflict={c} resolve={resolve} level={level} />)}
    </ul>
  );
}

/**
 * On a record's page, on a replica: the fields changed both on this device
 * and on the hub since the device last synced, for the rep to settle.
 * Nothing at all on a plain hub, or when there is nothing to settle.
 * `onResolved` reloads the record (it shows the value kept).
 */
export function ConflictPanel({ type, id, onResolved }: { type: string; id: number; onResolved(): void }) {
  const { conflicts, resolve } = useConflicts({ type, id });
  if (conflicts.length === 0) return null;
  const settle = async (conflict: SyncConflict, choice: ConflictChoice) => {
    await resolve(conflict, choice);
    onResolved();
  };
  const many = conflicts.length > 1;
  return (
    <section className="conflict-panel" aria-labelledby={`conflicts-${type}-${id}`}>
      <h2 id={`conflicts-${type}-${id}`}>{many ? `${conflicts.length} fields were` : 'A field was'} changed both here and on the hub</h2>
      <p className="muted">
        Someone changed {many ? 'these fields' : 'this field'} on the hub while you changed {many ? 'them' : 'it'} on this device.
        The {type.replace(/_/g, ' ')} shows the hub’s {many ? 'values' : 'value'} until you choose which to keep.
      </p>
      <ConflictList conflicts={conflicts} resolve={settle} label="Conflicts" />
    </section>
  );
}
