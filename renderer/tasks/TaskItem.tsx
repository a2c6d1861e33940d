import type { Task } from '../../shared/resources/task.js';
import { api } from '../api/client.js';
import { Link } from '../router/Link.js';
import { formatWhen } from './taskDates.js';

/** One task with its one-click completion checkbox. */
export function TaskItem({ task, onChanged }: { task: Task; onChanged(task: Task): void }) {
  const toggle = async () => onChanged(await api.update<Task>(`/v2/tasks/${task.id}`, { completed: !task.completed }));
  return (
    <li className={`task${task.completed ? ' done' : ''}${task.overdue && !task.completed ? ' overdue' : ''}`}>
      <input type="checkbox" checked={task.completed} onChange={() => void toggle()} aria-label={`Complete: ${task.content}`} />
      <span className="content">{task.content}</span>
      {task.resource_type === 'contact' && <Link to={`/contacts/${task.resource_id}`} className="muted">contact</Link>}
      <span className="muted when">{task.completed ? `done ${formatWhen(task.completed_at)}` : formatWhen(task.due_date)}</span>
    </li>
  );
}
