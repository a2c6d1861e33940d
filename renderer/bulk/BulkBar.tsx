import { useState } from 'react';
import type { QueryValue } from '../../shared/bridge.js';
import type { CustomFieldDefinition } from '../../shared/resources/customField.js';
import type { Stage } from '../../shared/resources/deal.js';
import { useLossReason, type LossAnswer } from '../deals/LossReason.js';
import { refusalText } from '../api/formErrors.js';
import { useUsers } from '../collaborators/useUsers.js';
import { customFieldsPayload } from '../forms/CustomFieldInputs.js';
import { Link } from '../router/Link.js';
import { useNamedOptions } from '../leads/useNamedOptions.js';
import { ACTION_LABELS, countOf, tagNames, type BulkAction, type BulkKind } from './bulkKinds.js';
import { idsMatching, MAX_SELECTION, runBulk, type BulkChange, type BulkSummary } from './bulkRun.js';
import type { Selection } from './useSelection.js';
import './bulk.css';
import { askToConfirm } from '../shell/ConfirmDialog.js';

interface Props {
  kind: BulkKind;
  selection: Selection;
  /** How many records the list's filters select in all (null until known). */
  total: number | null;
  /** The list's query without paging: "all matching" reads its ids. */
  query: Record<string, QueryValue>;
  /** A loaded record's name, for the summary's links. */
  nameOf(id: number): string | undefined;
  /** The records changed: the list reloads. */
  onChanged(): void;
}

type Run = { phase: 'finding'; found: number } | { phase: 'sending'; done: number; of: number } | { phase: 'done'; summary: BulkSummary; deleted: boolean };

/**
 * The bar over a list once rows are ticked: how many, "select all N
 * matching", and an action (owner, tags, status or stage, a custom field,
 * delete) applied through POST …/bulk in chunks, with progress and, at the
 * end, what changed and what could not be, each refusal in a rep's words.
 */
export function BulkBar({ kind, selection, total, query, nameOf, onChanged }: Props) {
  const [action, setAction] = useState<BulkAction | ''>('');
  const [value, setValue] = useState('');
  const [field, setField] = useState('');
  const [run, setRun] = useState<Run | null>(null);
  const [error, setError] = useState<string | null>(null);
  const lossReason = useLossReason();
  const count = selection.allMatching ? total ?? 0 : selection.ids.size;
  const busy = run !== null && run.phase !== 'done';

  if (count === 0 && run === null) return null;

  const choose = (next: BulkAction | '') => {
    setAction(next);
    setValue('');
    setField('');
    setError(null);
  };

  const apply = async (change: BulkChange) => {
    setError(null);
    try {
      const ids = selection.allMatching
        ? await idsMatching(kind.collection, query, (found) => setRun({ phase: 'finding', found }))
        : [...selection.ids];
      setRun({ phase: 'sending', done: 0, of: ids.length });
      const summary = await runBulk(kind.collection, ids, change, (done, of) => setRun({ phase: 'sending', done, of }));
      setRun({ phase: 'done', summary, deleted: 'delete' in change });
      selection.clear();
      choose('');
      onChanged();
    } catch (err) {
      setRun(null);
      setError(refusalText(err, `The ${kind.many} could not be read; check the connection and try again.`));
    }
  };

  return (
    <section className="bulk-bar card" aria-label={`Change the selected ${kind.many}`}>
      {count > 0 && !busy && (
        <div className="bulk-selection">
          <strong>{countOf(kind, count)} selected</strong>
          {selection.allMatching ? <span className="muted">(all matching the filters)</span>
            : total !== null && total > selection.ids.size && (
              total <= MAX_SELECTION
                ? <button type="button" className="link" onClick={selection.selectAllMatching}>Select all {countOf(kind, total)} matching</button>
                : <span className="muted">Narrow the list to {MAX_SELECTION.toLocaleString()} or fewer to change all of them at once.</span>
            )}
          <button type="button" className="link" onClick={selection.clear}>Clear selection</button>
        </div>
      )}
      {count > 0 && !busy && (
        <ActionForm kind={kind} count={count} action={action} value={value} field={field} askLossReason={lossReason.ask}
          onAction={choose} onValue={setValue} onField={setField} onApply={(change) => void apply(change)} />
      )}
      {lossReason.dialog}
      {error && <p className="form-error" role="alert">{error}</p>}
      {run && <RunStatus kind={kind} run={run} nameOf={nameOf} onClose={() => setRun(null)} />}
    </section>
  );
}

interface FormProps {
  kind: BulkKind;
  count: number;
  action: BulkAction | '';
  value: string;
  field: string;
  /** Asks why the deals were lost when the stage chosen is a lost one (useLossReason). */
  askLossReason(stage: Stage | undefined, question: string): Promise<LossAnswer | null>;
  onAction(action: BulkAction | ''): void;
  onValue(value: string): void;
  onField(field: string): void;
  onApply(change: BulkChange): void;
}

/** The action chooser, the action's own input, and Apply (a delete asks first, in the app's confirmation dialog). */
function ActionForm({ kind, count, action, value, field, askLossReason, onAction, onValue, onField, onApply }: FormProps) {
  const users = useUsers();
  // What the action needs (stages, custom fields), read when the action is chosen.
  const stages = useNamedOptions<Stage>(action === 'stage' ? '/v2/stages' : null);
  const fields = useNamedOptions<CustomFieldDefinition>(action === 'custom_field' && kind.customFields ? `/v2/${kind.customFields}/custom_fields` : null);
  const definition = fields.find((d) => d.name === field);
  const change = changeOf(action, value, definition);
  const confirmDelete = async () => {
    if (await askToConfirm({ title: `Delete ${countOf(kind, count)}?`, detail: 'This cannot be undone.', confirm: 'Delete' })) onApply({ delete: true });
  };

  // Into a lost stage, one reason for every deal selected, asked first; cancelled, nothing is sent.
  const applyChange = async (chosen: BulkChange) => {
    if (action !== 'stage' || !('update' in chosen)) return onApply(chosen);
    const question = count === 1 ? 'Why was the deal lost?' : `Why were ${countOf(kind, count)} lost?`;
    const answer = await askLossReason(stages.find((s) => s.id === Number(value)), question);
    if (answer) onApply({ update: { ...chosen.update, ...answer } });
  };

  return (
    <form className="bulk-action" onSubmit={(e) => {
      e.preventDefault();
      if (action === 'delete') void confirmDelete();
      else if (change) void applyChange(change);
    }}>
      <select aria-label="Action" value={action} onChange={(e) => onAction(e.target.value as BulkAction | '')}>
        <option value="">Choose an action…</option>
        {kind.actions.map((a) => <option key={a} value={a}>{ACTION_LABELS[a]}</option>)}
      </select>
      {action === 'owner' && (
        <select aria-label="New owner" value={value} onChange={(e) => onValue(e.target.value)}>
          <option value="">Choose the owner…</option>
          {users.map((u) => <option key={u.id} value={u.id}>{u.name}</option>)}
        </select>
      )}
      {(action === 'tags_add' || action === 'tags_remove') && (
        <input type="text" aria-label={action === 'tags_add' ? 'Tags to add' : 'Tags to remove'} placeholder="Tags, separated by commas" value={value} onChange={(e) => onValue(e.target.value)} />
      )}
      {action === 'status' && (
        <select aria-label="New status" value={value} onChange={(e) => onValue(e.target.value)}>
          <option value="">Choose the status…</option>
          {(kind.statuses ?? []).map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
      )}
      {action === 'stage' && (
        <select aria-label="New stage" value={value} onChange={(e) => onValue(e.target.value)}>
          <option value="">Choose the stage…</option>
          {stages.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
        </select>
      )}
      {action === 'completed' && (
        <select aria-label="Done" value={value} onChange={(e) => onValue(e.target.value)}>
          <option value="">Choose…</option>
          <option value="true">Done</option>
          <option value="false">Not done</option>
        </select>
      )}
      {action === 'custom_field' && (
        <>
          <select aria-label="Custom field" value={field} onChange={(e) => {
            onField(e.target.value);
            onValue('');
          }}>
            <option value="">Choose the field…</option>
            {fields.map((d) => <option key={d.id} value={d.name}>{d.name}</option>)}
          </select>
          {definition && (definition.type === 'list' ? (
            <select aria-label={`New ${definition.name}`} value={value} onChange={(e) => onValue(e.target.value)}>
              <option value="">(empty)</option>
              {(definition.choices ?? []).map((c) => <option key={c.id} value={c.name}>{c.name}</option>)}
            </select>
          ) : (
            <input type="text" aria-label={`New ${definition.name}`} placeholder={definition.type === 'multi_select_list' ? 'Choices, separated by commas' : 'Leave empty to clear'}
              value={value} onChange={(e) => onValue(e.target.value)} />
          ))}
        </>
      )}
      {action !== '' && (
        <button type="submit" className={action === 'delete' ? 'danger' : 'primary'} disabled={action !== 'delete' && !change}>
          {action === 'delete' ? `Delete ${countOf(kind, count)}…` : `Apply to ${countOf(kind, count)}`}
        </button>
      )}
    </form>
  );
}

/** The update an action sends, or null while its input is not filled in. */
function changeOf(action: BulkAction | '', value: string, definition: CustomFieldDefinition | undefined): BulkChange | null {
  switch (action) {
    case 'owner': return value ? { update: { owner_id: Number(value) } } : null;
    case 'tags_add': return tagNames(value).length > 0 ? { update: { tags_add: tagNames(value) } } : null;
    case 'tags_remove': return tagNames(value).length > 0 ? { update: { tags_remove: tagNames(value) } } : null;
    case 'status': return value ? { update: { status: value } } : null;
    case 'stage': return value ? { update: { stage_id: Number(value) } } : null;
    case 'completed': return value ? { update: { completed: value === 'true' } } : null;
    case 'custom_field': {
      if (!definition) return null;
      const typed = definition.type === 'multi_select_list' ? tagNames(value) : value.trim() === '' ? null : value.trim();
      return { update: { custom_fields: customFieldsPayload([definition], { [definition.name]: typed }) } };
    }
    default: return null;
  }
}

const FAILURES_SHOWN = 50;

/** Progress while a run goes, then its summary: how many changed, and each refusal with a link to its record. */
function RunStatus({ kind, run, nameOf, onClose }: { kind: BulkKind; run: Run; nameOf(id: number): string | undefined; onClose(): void }) {
  if (run.phase === 'finding') {
    return <p className="bulk-progress" role="status">Finding the {kind.many}… {run.found.toLocaleString()} so far</p>;
  }
  if (run.phase === 'sending') {
    return (
      <div className="bulk-progress" role="status">
        <progress value={run.done} max={run.of} aria-label={`Changing the ${kind.many}`} />
        <span>{run.done.toLocaleString()} of {run.of.toLocaleString()}</span>
      </div>
    );
  }
  const { summary, deleted } = run;
  const { failed } = summary;
  return (
    <div className="bulk-summary" role="status">
      <p>
        <strong>{countOf(kind, summary.changed)} {deleted ? 'deleted' : 'changed'}.</strong>
        {failed.length > 0 && ` ${countOf(kind, failed.length)} could not be ${deleted ? 'deleted' : 'changed'}:`}
      </p>
      {failed.length > 0 && (
        <ul className="bulk-failures">
          {failed.slice(0, FAILURES_SHOWN).map((f) => {
            const name = nameOf(f.id) ?? `${kind.one.charAt(0).toUpperCase()}${kind.one.slice(1)} ${f.id}`;
            return <li key={f.id}>{kind.pagePath ? <Link to={`${kind.pagePath}/${f.id}`}>{name}</Link> : <b>{name}</b>}: {f.reason}</li>;
          })}
          {failed.length > FAILURES_SHOWN && <li className="muted">and {(failed.length - FAILURES_SHOWN).toLocaleString()} more</li>}
        </ul>
      )}
      <button type="button" onClick={onClose}>Done</button>
    </div>
  );
}
