import { useEffect } from 'react';
import { useSession } from '../session/sessionStore.js';
import { TaskForm } from './TaskForm.js';
import { TaskSection } from './TaskSection.js';
import { SECTION_TITLES, type TaskSectionKey } from './taskSections.js';
import { useTaskCounts } from './taskCountsStore.js';
import { CsvExportButton, ExportButton } from '../importExport/ExportButton.js';
import { BulkBar } from '../bulk/BulkBar.js';
import { BULK_KINDS } from '../bulk/bulkKinds.js';
import { useSelection } from '../bulk/useSelection.js';
import './tasks.css';

const SECTIONS: TaskSectionKey[] = ['overdue', 'today', 'upcoming', 'none', 'completed'];

/**
 * The rep's tasks in sections (overdue, today, upcoming, no due date,
 * completed). The hub decides what falls where, counts each section and
 * pages it, so today's tasks show even behind hundreds of overdue ones.
 */
export function TasksScreen() {
  const me = useSession((s) => s.user);
  const counts = useTaskCounts((s) => s.counts);
  useEffect(() => void useTaskCounts.getState().refresh(), []);
  // The bulk selection spans the sections: "all matching" is every task of the user's.
  const selection = useSelection('tasks');
  if (!me) return null;
  const total = counts ? SECTIONS.reduce((sum, section) => sum + (counts[section] ?? 0), 0) : null;

  return (
    <section className="screen tasks-screen">
      <header className="screen-header">
        <h1>Tasks</h1>
        <div className="list-actions">
          <CsvExportButton resource="tasks" query={{ owner_id: me.id, sort_by: 'due_date' }} what="tasks" />
          <ExportButton path="/v2/tasks/export.ics" query={{ owner_id: me.id, sort_by: 'due_date' }} label="Export calendar (.ics)" description="Export your tasks with a due date as an iCalendar file" />
        </div>
      </header>
      {/* The form tells the sections itself (taskCountsStore). */}
      <TaskForm onCreated={() => undefined} />
      <nav className="section-jumps" aria-label="Task sections">
        {SECTIONS.map((section) => (
          <button key={section} type="button" className={`jump ${section}`} onClick={() => document.getElementById(`tasks-${section}`)?.scrollIntoView({ block: 'start' })}>
            {SECTION_TITLES[section]} <b>{counts?.[section] ?? '…'}</b>
          </button>
        ))}
      </nav>
      <BulkBar kind={BULK_KINDS.tasks} selection={selection} total={total} query={{ owner_id: me.id }}
        nameOf={() => undefined} onChanged={() => useTaskCounts.getState().changed()} />
      {SECTIONS.map((section) => <TaskSection key={section} section={section} ownerId={me.id} count={counts?.[section] ?? null} selection={selection} />)}
    </section>
  );
}
