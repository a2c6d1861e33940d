import { useId, useState } from 'react';
import type { QueryValue } from '../../shared/bridge.js';
import type { Task } from '../../shared/resources/task.js';
import { api } from '../api/client.js';
import { refusalText } from '../api/formErrors.js';
import type { Selection } from '../bulk/useSelection.js';
import { RescheduleMenu } from './RescheduleMenu.js';
import { rescheduledTimes, targetWords, type RescheduleTarget } from './reschedule.js';
import { useTaskCounts } from './taskCountsStore.js';

/** Tasks read per request (the API's largest page). */
const PAGE = 100;
/** The most tasks one reschedule moves, as a bulk edit's limit. */
const MAX_TASKS = 10_000;
/** PUTs in flight at once: quick, without flooding a replica's queue or the hub. */
const PARALLEL = 4;

type Run = { phase: 'sending'; done: number; of: number } | { phase: 'done'; text: string; failures: string[] };

/**
 * The ticked tasks rescheduled together (Tomorrow, Next week, a date), each
 * keeping its own time of day. The bulk edit sets one value for all, and
 * each task's new due time differs, so it is one PUT per task: ordinary edits,
 * queued on a replica like any other. Completed tasks are left as they are.
 */
export function BulkReschedule({ selection, query }: { selection: Selection; query: Record<string, QueryValue> }) {
  const [run, setRun] = useState<Run | null>(null);
  const describedId = useId();
  const count = selection.ids.size;
  const selected = selection.allMatching || count > 0;
  if (!selected && run === null) return null;

  const apply = async (target: RescheduleTarget) => {
    setRun({ phase: 'sending', done: 0, of: selection.allMatching ? 0 : count });
    try {
      const tasks = (await selectedTasks(selection, query)).filter((t) => !t.completed);
      const failures = await moveAll(tasks, target, (done) => setRun({ phase: 'sending', done, of: tasks.length }));
      setRun({ phase: 'done', text: doneText(tasks.length, failures.length, target), failures });
      if (failures.length === 0) selection.clear();
    } catch (err) {
      setRun({ phase: 'done', text: refusalText(err, 'The tasks could not be read.'), failures: [] });
    }
    useTaskCounts.getState().changed();
  };

  return (
    <div className="card bulk-reschedule" role="group" aria-label="Reschedule selected tasks">
      {selected && (
        <>
          <span id={describedId} className="muted">{selection.allMatching ? 'All matching open tasks:' : `The ${tasksWord(count, 'selected')}:`}</span>
          <RescheduleMenu describedBy={describedId} disabled={run?.phase === 'sending'} onPick={(target) => void apply(target)} />
        </>
      )}
      <div role="status" className="bulk-reschedule-status">
        {run?.phase === 'sending' && `Rescheduling… ${run.done} of ${run.of || '…'}`}
        {run?.phase === 'done' && run.text}
        {run?.phase === 'done' && run.failures.length > 0 && (
          <ul className="bulk-reschedule-failures">{run.failures.map((f) => <li key={f}>{f}</li>)}</ul>
        )}
      </div>
    </div>
  );
}

const tasksWord = (n: number, what = '') => `${n.toLocaleString()}${what ? ` ${what}` : ''} ${n === 1 ? 'task' : 'tasks'}`;

/** "Rescheduled 3 tasks to tomorrow.", or how many of them where some could not be. */
function doneText(total: number, failed: number, target: RescheduleTarget): string {
  const where = targetWords(target, new Date());
  if (total === 0) return 'No open task was selected: nothing was moved.';
  if (failed === 0) return `Rescheduled ${tasksWord(total)} to ${where}.`;
  return `Rescheduled ${total - failed} of ${tasksWord(total)} to ${where}; ${failed} could not be:`;
}

/** The selected tasks themselves (their due times are needed): the ticked ones by id, or every one the list's filters select. */
async function selectedTasks(selection: Selection, query: Record<string, QueryValue>): Promise<Task[]> {
  const tasks: Task[] = [];
  if (!selection.allMatching) {
    const ids = [...selection.ids];
    for (let i = 0; i < ids.length; i += PAGE) {
      const answer = await api.list<Task>('/v2/tasks', { ids: ids.slice(i, i + PAGE).join(','), per_page: PAGE });
      tasks.push(...answer.items.map((item) => item.data));
    }
    return tasks;
  }
  const { page: _page, per_page: _perPage, ...filters } = query;
  for (let page = 1; tasks.length < MAX_TASKS; page++) {
    const answer = await api.list<Task>('/v2/tasks', { ...filters, page, per_page: PAGE });
    tasks.push(...answer.items.map((item) => item.data));
    if (!answer.meta.links.next_page) break;
  }
  return tasks.slice(0, MAX_TASKS);
}

/** PUTs each task's new times, a few at a time; answers what could not be moved, in words ("Call Bob: …"). */
async function moveAll(tasks: Task[], target: RescheduleTarget, progress: (done: number) => void): Promise<string[]> {
  const now = new Date();
  const failures: string[] = [];
  let done = 0;
  for (let i = 0; i < tasks.length; i += PARALLEL) {
    await Promise.all(tasks.slice(i, i + PARALLEL).map(async (task) => {
      const times = rescheduledTimes(task, target, now);
      try {
        if (!times) throw new Error('That is not a date.');
        await api.update<Task>(`/v2/tasks/${task.id}`, times);
      } catch (err) {
        failures.push(`${task.content}: ${refusalText(err, 'it could not be changed.')}`);
      }
      done += 1;
    }));
    progress(done);
  }
  return failures;
}
