import type { Task } from '../../shared/resources/task.js';
import { api } from '../api/client.js';
import { Link } from '../router/Link.js';
import { formatWhen } from './taskDates.js';
import { useTaskCounts } from './taskCountsStore.js';
import { recordOf } from '../records/records.js';
import { RecordLink } from '../records/RecordLink.js';
import type { RecordSummary } from '../records/useRecordSummaries.js';

interface Props {
  task: Task;
  /** Besides the counts and lists that follow every change (taskCountsStore), e.g. a timeline reloading. */
  onChanged?(task: Task): void;
  /** Names of the tasks' records, where the list shows them (Tasks, Home); a record's own timeline needs none. */
  summaries?: Map<string, RecordSummary>;
  /** Where tasks can be ticked for a bulk action (the Tasks screen): whether this one is, and how to tick it. */
  select?: { selected: boolean; toggle(): void };
}

/** One task with its one-click completion checkbox. */
export function TaskItem({ task, onChanged, summaries, select }: Props) {
  const toggle = async () => {
    const changed = await api.update<Task>(`/v2/tasks/${task.id}`, { completed: !task.completed });
    useTaskCounts.getState().changed();
    onChanged?.(changed);
  };
  const record = recordOf(task);
  return (
    <li className={`task${task.completed ? ' done' : ''}${task.overdue && !task.completed ? ' overdue' : ''}`}>
      {select && (
        <span className="cell-select task-select"><input type="checkbox" checked={select.selected} onChange={select.toggle} aria-label={`Select ${task.content}`} /></span>
      )}
      <input type="checkbox" checked={task.completed} onChange={() => void toggle()} aria-label={`Complete: ${task.content}`} />
      {/* What, then its record and time: beside it where the row is wide, under it where it is not (a phone). */}
      <div className="task-body">
        <span className="content">{task.content}</span>
        <span className="task-meta">
          {record && summaries && <RecordLink record={record} summaries={summaries} />}
          {record?.type === 'contact' && !summaries && <Link to={`/contacts/${record.id}`} className="muted">contact</Link>}
          <span className="muted when">{task.completed ? `done ${formatWhen(task.completed_at)}` : formatWhen(task.due_date)}</span>
        </span>
      </div>
    </li>
  );
}
