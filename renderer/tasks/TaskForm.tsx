import { useState } from 'react';
import type { Task } from '../../shared/resources/task.js';
import type { SearchResult } from '../../shared/resources/recordSearch.js';
import { api } from '../api/client.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { RecordPicker } from '../commands/RecordPicker.js';
import { useUsers } from '../collaborators/useUsers.js';
import { DateField } from '../forms/DateField.js';
import { FormField, FormMessage } from '../forms/FormField.js';
import { isoToLocalInput, localInputToIso } from './taskDates.js';
import { reminderWarning } from './reminderCheck.js';
import { useTaskCounts } from './taskCountsStore.js';

type RecordRef = { type: 'contact' | 'lead' | 'deal'; id: number };

interface Props {
  /** Attach a new task to this record; without one the rep may pick a contact, lead or deal it is about (or none). */
  resource?: RecordRef;
  onCreated?(task: Task): void;
  /** The task to edit: the form shows its values and an owner, saves with a PUT, and offers Cancel. */
  task?: Task;
  onSaved?(task: Task): void;
  onCancel?(): void;
}

const TYPE_NAMES = { contact: 'Contact', lead: 'Lead', deal: 'Deal' } as const;

/** The form's fields by API name, as labelled: a refusal shows by them (what the task is about, by the picker). */
const TASK_LABELS = { content: 'Task', due_date: 'Due', remind_at: 'Reminder', resource_id: 'About', owner_id: 'Owner' };
const fieldOf = (name: string) => (name === 'resource_type' ? 'resource_id' : name);

/** What the form holds: the inputs' own values (local date and time, an owner's id as text). */
interface TaskValues {
  content: string;
  due: string;
  remind: string;
  owner: string;
}

const valuesOf = (task: Task | undefined): TaskValues => ({
  content: task?.content ?? '',
  due: isoToLocalInput(task?.due_date ?? null),
  remind: isoToLocalInput(task?.remind_at ?? null),
  owner: task ? String(task.owner_id) : '',
});

/**
 * What an edit's PUT sends: only the fields the rep changed, so an edit made
 * meanwhile elsewhere (another browser, an offline replica) to another field
 * merges instead of being put back. Compared as the inputs show them, so a
 * due date's seconds the input cannot show are not "changed".
 */
export function editedFields(before: TaskValues, after: TaskValues): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  if (after.content !== before.content) changes.content = after.content;
  if (after.due !== before.due) changes.due_date = localInputToIso(after.due);
  if (after.remind !== before.remind) changes.remind_at = localInputToIso(after.remind);
  if (after.owner !== before.owner) changes.owner_id = Number(after.owner);
  return changes;
}

/**
 * Create a task, or edit one in place: what, a due date and an optional
 * reminder, each with quick picks (and, editing, who owns it); a reminder
 * after the due date (or in the past) is explained as the values change,
 * before Save; refusals show by their fields in words, and go once the field
 * is changed. A task added is confirmed in a status message.
 */
export function TaskForm({ resource, onCreated, task, onSaved, onCancel }: Props) {
  const editing = task !== undefined;
  const [values, setValues] = useState<TaskValues>(() => valuesOf(task));
  const [about, setAbout] = useState<SearchResult | null>(null);
  const [added, setAdded] = useState('');
  const target: RecordRef | null = resource ?? (about ? { type: about.type, id: about.id } : null);

  const create = async () => {
    const created = await api.create<Task>('/v2/tasks', {
      content: values.content,
      due_date: localInputToIso(values.due),
      remind_at: localInputToIso(values.remind),
      ...(target ? { resource_type: target.type, resource_id: target.id } : {}),
    });
    setValues(valuesOf(undefined));
    setAbout(null);
    setAdded('Task added.');
    onCreated?.(created);
  };
  const saveEdit = async (before: Task) => {
    const changes = editedFields(valuesOf(before), values);
    const saved = Object.keys(changes).length > 0 ? await api.update<Task>(`/v2/tasks/${before.id}`, changes) : before;
    onSaved?.(saved);
  };

  const { saving, errors, clearError, submit } = useFormSubmit({ labels: TASK_LABELS, failure: 'The task could not be saved.', fieldOf, stays: true }, async () => {
    if (task) await saveEdit(task);
    else await create();
    // The bell, the sections and Home count it at once, wherever it was made.
    useTaskCounts.getState().changed();
  });

  /** A field typed into: its value kept, its refusal (and those it caused) gone, the last confirmation too. */
  const change = (field: keyof TaskValues, value: string, ...refusals: string[]) => {
    setValues((now) => ({ ...now, [field]: value }));
    for (const name of refusals) clearError(name);
    setAdded('');
  };

  return (
    <form className={`inline-form task-form${editing ? ' task-edit' : ''}`} onSubmit={submit} aria-label={editing ? 'Edit task' : 'New task'} noValidate>
      <FormField label="Task" error={errors.content} className="grow">
        <input type="text" value={values.content} onChange={(e) => change('content', e.target.value, 'content')} placeholder="What needs doing?" />
      </FormField>
      <DateField label="Due" kind="datetime-local" value={values.due} error={errors.due_date}
        onChange={(value) => change('due', value, 'due_date', 'remind_at')} />
      <DateField label="Reminder" kind="datetime-local" value={values.remind} error={errors.remind_at}
        onChange={(value) => change('remind', value, 'remind_at')}
        warning={reminderWarning(values.due, values.remind, new Date())} />
      {editing && (
        <OwnerField value={values.owner} error={errors.owner_id} onChange={(value) => change('owner', value, 'owner_id')} />
      )}
      {!editing && !resource && (
        <div className="task-about">
          {about ? (
            <p className="picked" aria-live="polite">
              <span>About {TYPE_NAMES[about.type].toLowerCase()} <b>{about.name}</b></span>
              <button type="button" aria-label={`Not about ${about.name}`} onClick={() => setAbout(null)}>×</button>
            </p>
          ) : (
            <RecordPicker label="About (contact, lead or deal; optional)" onPick={setAbout} />
          )}
          {errors.resource_id && <span className="field-error" role="alert">{errors.resource_id}</span>}
        </div>
      )}
      {editing ? (
        <div className="actions">
          <button type="submit" className="primary" disabled={saving}>{saving ? 'Saving…' : 'Save'}</button>
          <button type="button" onClick={onCancel}>Cancel</button>
        </div>
      ) : (
        <button type="submit" className="primary" disabled={saving}>Add task</button>
      )}
      <FormMessage error={errors._} />
      {!editing && <p className="task-added" role="status">{added}</p>}
    </form>
  );
}

/** Who owns the task: one of the team's active users (read only where a task is edited). */
function OwnerField({ value, error, onChange }: { value: string; error?: string; onChange(value: string): void }) {
  const users = useUsers();
  return (
    <FormField label="Owner" error={error}>
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {/* An owner not among the active users (yet loaded, or deactivated) stays chosen until changed. */}
        {!users.some((u) => String(u.id) === value) && <option value={value}>{users.length ? `User ${value}` : '…'}</option>}
        {users.map((u) => <option key={u.id} value={u.id}>{u.name}</option>)}
      </select>
    </FormField>
  );
}
