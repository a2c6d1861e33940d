import { useState } from 'react';
import type { Task } from '../../shared/resources/task.js';
import type { SearchResult } from '../../shared/resources/recordSearch.js';
import { api } from '../api/client.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { RecordPicker } from '../commands/RecordPicker.js';
import { DateField } from '../forms/DateField.js';
import { FormField, FormMessage } from '../forms/FormField.js';
import { localInputToIso } from './taskDates.js';
import { reminderWarning } from './reminderCheck.js';
import { useTaskCounts } from './taskCountsStore.js';

type RecordRef = { type: 'contact' | 'lead' | 'deal'; id: number };

interface Props {
  /** Attach the task to this record; without one the rep may pick a contact, lead or deal it is about (or none). */
  resource?: RecordRef;
  onCreated(task: Task): void;
}

const TYPE_NAMES = { contact: 'Contact', lead: 'Lead', deal: 'Deal' } as const;

/** The form's fields by API name, as labelled: a refusal shows by them (what the task is about, by the picker). */
const TASK_LABELS = { content: 'Task', due_date: 'Due', remind_at: 'Reminder', resource_id: 'About' };
const fieldOf = (name: string) => (name === 'resource_type' ? 'resource_id' : name);

/**
 * Create a task with a due date and an optional reminder, each with quick
 * picks; a reminder after the due date (or in the past) is explained as the
 * values change, before Save; refusals show by their fields in words.
 */
export function TaskForm({ resource, onCreated }: Props) {
  const [content, setContent] = useState('');
  const [due, setDue] = useState('');
  const [remind, setRemind] = useState('');
  const [about, setAbout] = useState<SearchResult | null>(null);
  const target: RecordRef | null = resource ?? (about ? { type: about.type, id: about.id } : null);

  const { saving, errors, clearError, submit } = useFormSubmit({ labels: TASK_LABELS, failure: 'The task could not be saved.', fieldOf, stays: true }, async () => {
    const task = await api.create<Task>('/v2/tasks', {
      content,
      due_date: localInputToIso(due),
      remind_at: localInputToIso(remind),
      ...(target ? { resource_type: target.type, resource_id: target.id } : {}),
    });
    setContent('');
    setDue('');
    setRemind('');
    setAbout(null);
    // The bell, the sections and Home count it at once, wherever it was made.
    useTaskCounts.getState().changed();
    onCreated(task);
  });

  return (
    <form className="inline-form task-form" onSubmit={submit} aria-label="New task" noValidate>
      <FormField label="Task" error={errors.content} className="grow">
        <input type="text" value={content} onChange={(e) => { setContent(e.target.value); clearError('content'); }} placeholder="What needs doing?" />
      </FormField>
      <DateField label="Due" kind="datetime-local" value={due} error={errors.due_date}
        onChange={(value) => { setDue(value); clearError('due_date'); clearError('remind_at'); }} />
      <DateField label="Reminder" kind="datetime-local" value={remind} error={errors.remind_at}
        onChange={(value) => { setRemind(value); clearError('remind_at'); }}
        warning={reminderWarning(due, remind, new Date())} />
      {!resource && (
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
      <button type="submit" className="primary" disabled={saving}>Add task</button>
      <FormMessage error={errors._} />
    </form>
  );
}
