import { useState, type FormEvent } from 'react';
import type { Task } from '../../shared/resources/task.js';
import { api, ApiFailure } from '../api/client.js';
import { localInputToIso } from './taskDates.js';
import { useTaskCounts } from './taskCountsStore.js';

interface Props {
  /** Attach the task to this record; a floating task otherwise. */
  resource?: { type: 'contact' | 'lead' | 'deal'; id: number };
  onCreated(task: Task): void;
}

/** Create a task with a due date and an optional reminder; API field errors appear by their fields. */
export function TaskForm({ resource, onCreated }: Props) {
  const [content, setContent] = useState('');
  const [due, setDue] = useState('');
  const [remind, setRemind] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const task = await api.create<Task>('/v2/tasks', {
        content,
        due_date: localInputToIso(due),
        remind_at: localInputToIso(remind),
        ...(resource ? { resource_type: resource.type, resource_id: resource.id } : {}),
      });
      setContent('');
      setDue('');
      setRemind('');
      setErrors({});
      // The bell, the sections and Home count it at once, wherever it was made.
      useTaskCounts.getState().changed();
      onCreated(task);
    } catch (err) {
      setErrors(err instanceof ApiFailure ? err.fieldErrors : { _: 'The task could not be saved.' });
    }
  };

  return (
    <form className="inline-form" onSubmit={submit} aria-label="New task">
      <label className="grow">
        Task
        <input type="text" value={content} onChange={(e) => setContent(e.target.value)} placeholder="What needs doing?" aria-invalid={Boolean(errors.content)} />
        {errors.content && <span className="field-error" role="alert">{errors.content}</span>}
      </label>
      <label>
        Due
        <input type="datetime-local" value={due} onChange={(e) => setDue(e.target.value)} />
      </label>
      <label>
        Reminder
        <input type="datetime-local" value={remind} onChange={(e) => setRemind(e.target.value)} aria-invalid={Boolean(errors.remind_at)} />
        {errors.remind_at && <span className="field-error" role="alert">{errors.remind_at}</span>}
      </label>
      <button type="submit" className="primary">Add task</button>
    </form>
  );
}
