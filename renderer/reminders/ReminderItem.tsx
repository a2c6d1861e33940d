import type { Task } from '../../shared/resources/task.js';
import { Link } from '../router/Link.js';
import { formatWhen } from '../tasks/taskDates.js';
import { recordOf } from '../records/records.js';
import { RecordLink } from '../records/RecordLink.js';
import type { RecordSummary } from '../records/useRecordSummaries.js';
import { SNOOZE_CHOICES, snoozedTimes } from './snooze.js';
import { completeReminder, dismissReminder, snoozeReminder } from './reminderActions.js';

interface Props {
  task: Task;
  summaries: Map<string, RecordSummary>;
  /** Runs one of the item's actions; the centre shows its outcome. */
  onAct(action: () => Promise<string>): void;
}

/** One due reminder: what, when, on which record, and what to do about it. */
export function ReminderItem({ task, summaries, onAct }: Props) {
  const record = recordOf(task);
  // Said before the click, not after: a snooze past the due time moves the due time too.
  const snoozeTitle = (choice: (typeof SNOOZE_CHOICES)[number]) =>
    `Remind me again ${choice.name}${snoozedTimes(task, choice.until(new Date())).due_date ? ' (moves the due time too)' : ''}`;
  return (
    <li className="reminder" aria-label={task.content}>
      <div className="reminder-main">
        <span className="reminder-what">{task.content}</span>
        <span className={`muted when${task.overdue ? ' overdue' : ''}`}>
          {task.overdue ? 'Overdue since' : 'Due'} {formatWhen(task.due_date)}
          {record ? <> · <RecordLink record={record} summaries={summaries} /></> : <> · <Link to="/tasks">Open tasks</Link></>}
        </span>
      </div>
      <div className="reminder-actions">
        <button type="button" className="primary" onClick={() => onAct(() => completeReminder(task))}>Done</button>
        <div className="snooze" role="group" aria-label="Snooze">
          <span className="muted">Snooze</span>
          {SNOOZE_CHOICES.map((choice) => (
            <button key={choice.label} type="button" title={snoozeTitle(choice)} onClick={() => onAct(() => snoozeReminder(task, choice))}>{choice.label}</button>
          ))}
        </div>
        <button type="button" className="link" title="Stop reminding; the task stays in Tasks" onClick={() => onAct(() => dismissReminder(task))}>Dismiss</button>
      </div>
    </li>
  );
}
