import { useEffect, useId, useRef, useState } from 'react';
import type { Task } from '../../shared/resources/task.js';
import { api } from '../api/client.js';
import { refusalText } from '../api/formErrors.js';
import { Link } from '../router/Link.js';
import { formatWhen } from './taskDates.js';
import { useTaskCounts } from './taskCountsStore.js';
import { recordOf } from '../records/records.js';
import { RecordLink } from '../records/RecordLink.js';
import type { RecordSummary } from '../records/useRecordSummaries.js';
import { RescheduleMenu } from './RescheduleMenu.js';
import { rescheduledTimes, type RescheduleTarget } from './reschedule.js';
import { TaskForm } from './TaskForm.js';
import './tasks.css';

interface Props {
  task: Task;
  /** Besides the counts and lists that follow every change (taskCountsStore), e.g. a timeline reloading. */
  onChanged?(task: Task): void;
  /** Names of the tasks' records, where the list shows them (Tasks, Home); a record's own timeline needs none. */
  summaries?: Map<string, RecordSummary>;
  /** Where tasks can be ticked for a bulk action (the Tasks screen): whether this one is, and how to tick it. */
  select?: { selected: boolean; toggle(): void };
}

/**
 * One task with its one-click completion checkbox and, while open, a
 * Reschedule menu; Edit turns the row into the task's form, saved in place.
 * Every change is a plain PUT (queued like any other edit on a replica).
 */
export function TaskItem({ task, onChanged, summaries, select }: Props) {
  const [editing, setEditing] = useState(false);
  const [failure, setFailure] = useState('');
  const contentId = useId();
  const editButton = useRef<HTMLButtonElement>(null);
  // After the form closes, the focus goes back to Edit rather than to the page's start.
  const refocus = useRef(false);
  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    editButton.current?.focus();
  }, [editing]);

  const update = async (changes: Record<string, unknown>) => {
    setFailure('');
    try {
      const changed = await api.update<Task>(`/v2/tasks/${task.id}`, changes);
      useTaskCounts.getState().changed();
      onChanged?.(changed);
    } catch (err) {
      setFailure(refusalText(err, 'The task could not be changed.'));
    }
  };
  const reschedule = (target: RescheduleTarget) => {
    const times = rescheduledTimes(task, target, new Date());
    if (times) void update(times);
  };
  const closeForm = () => {
    refocus.current = true;
    setEditing(false);
  };

  if (editing) {
    return (
      <li className="task editing">
        <TaskForm task={task} onCancel={closeForm} onSaved={(saved) => {
          closeForm();
          onChanged?.(saved);
        }} />
      </li>
    );
  }
  const record = recordOf(task);
  return (
    <li className={`task${task.completed ? ' done' : ''}${task.overdue && !task.completed ? ' overdue' : ''}`}>
      {select && (
        <span className="cell-select task-select"><input type="checkbox" checked={select.selected} onChange={select.toggle} aria-label={`Select ${task.content}`} /></span>
      )}
      <input type="checkbox" checked={task.completed} onChange={() => void update({ completed: !task.completed })} aria-label={`Complete: ${task.content}`} />
      {/* What, then its record and time: beside it where the row is wide, under it where it is not (a phone). */}
      <div className="task-body">
        <span className="content" id={contentId}>{task.content}</span>
        <span className="task-meta">
          {record && summaries && <RecordLink record={record} summaries={summaries} />}
          {record?.type === 'contact' && !summaries && <Link to={`/contacts/${record.id}`} className="muted">contact</Link>}
          <span className="muted when">{task.completed ? `done ${formatWhen(task.completed_at)}` : formatWhen(task.due_date)}</span>
        </span>
        {failure && <span className="field-error task-failure" role="alert">{failure}</span>}
      </div>
      <div className="task-actions">
        {!task.completed && <RescheduleMenu describedBy={contentId} onPick={reschedule} />}
        <button ref={editButton} type="button" className="task-action" aria-label="Edit task" aria-describedby={contentId} onClick={() => setEditing(true)}>Edit</button>
      </div>
    </li>
  );
}
