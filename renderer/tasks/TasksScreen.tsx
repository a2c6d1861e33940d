import { useCallback, useEffect, useState } from 'react';
import type { Task } from '../../shared/resources/task.js';
import { api } from '../api/client.js';
import { useSession } from '../session/sessionStore.js';
import { TaskForm } from './TaskForm.js';
import { TaskItem } from './TaskItem.js';
import { bucketOf, type TaskBucket } from './taskDates.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { CsvExportButton, ExportButton } from '../importExport/ExportButton.js';

const SECTIONS: { bucket: TaskBucket; title: string }[] = [
  { bucket: 'overdue', title: 'Overdue' },
  { bucket: 'today', title: 'Today' },
  { bucket: 'upcoming', title: 'Upcoming' },
  { bucket: 'someday', title: 'No due date' },
];

/** The rep's day: overdue, today, upcoming and completed tasks; complete with one click. */
export function TasksScreen() {
  const me = useSession((s) => s.user);
  const [open, setOpen] = useState<Task[]>([]);
  const [done, setDone] = useState<Task[]>([]);
  // Bumped after every change, to load the lists again.
  const [version, setVersion] = useState(0);
  const load = useCallback(() => setVersion((v) => v + 1), []);
  useRefreshOnSync(load);

  useEffect(() => {
    if (!me) return;
    let live = true;
    Promise.all([
      api.list<Task>('/v2/tasks', { owner_id: me.id, completed: false, sort_by: 'due_date', per_page: 100 }),
      api.list<Task>('/v2/tasks', { owner_id: me.id, completed: true, sort_by: 'completed_at:desc', per_page: 25 }),
    ]).then(([openPage, donePage]) => {
      if (!live) return;
      setOpen(openPage.items.map((i) => i.data));
      setDone(donePage.items.map((i) => i.data));
    }, () => undefined);
    return () => {
      live = false;
    };
  }, [me, version]);

  const now = new Date();
  return (
    <section className="screen tasks-screen">
      <header className="screen-header">
        <h1>Tasks</h1>
        {me && (
          <div className="list-actions">
            <CsvExportButton resource="tasks" query={{ owner_id: me.id, sort_by: 'due_date' }} what="tasks" />
            <ExportButton path="/v2/tasks/export.ics" query={{ owner_id: me.id, sort_by: 'due_date' }} label="Export calendar (.ics)" description="Export your tasks with a due date as an iCalendar file" />
          </div>
        )}
      </header>
      <TaskForm onCreated={load} />
      {SECTIONS.map(({ bucket, title }) => {
        const tasks = open.filter((t) => bucketOf(t.due_date, now) === bucket);
        return (
          <div key={bucket} className="card task-section" aria-label={title}>
            <h2>{title} <span className="muted">{tasks.length}</span></h2>
            {tasks.length === 0 ? <p className="muted">Nothing here.</p> : (
              <ul className="tasks">{tasks.map((t) => <TaskItem key={t.id} task={t} onChanged={load} />)}</ul>
            )}
          </div>
        );
      })}
      <div className="card task-section" aria-label="Completed">
        <h2>Completed</h2>
        <ul className="tasks">{done.map((t) => <TaskItem key={t.id} task={t} onChanged={load} />)}</ul>
      </div>
    </section>
  );
}
