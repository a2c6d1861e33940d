import { useEffect, useState } from 'react';
import type { Task } from '../../shared/resources/task.js';
import { api } from '../api/client.js';
import { useSession } from '../session/sessionStore.js';
import { Link } from '../router/Link.js';
import { ReminderTracker } from '../../shared/reminders.js';

const POLL_MS = 30_000;
const SHOWN_KEY = 'outpost.reminders.shown';

/**
 * In-app reminders: asks the engine which of the user's open tasks have a
 * reminder whose time has come (its clock decides), and shows each once.
 * The desktop app also raises a system notification from the main process.
 */
export function ReminderWatcher() {
  const me = useSession((s) => s.user);
  const [due, setDue] = useState<Task[]>([]);

  useEffect(() => {
    if (!me) return;
    let live = true;
    const check = async () => {
      const page = await api.list<Task>('/v2/tasks', { owner_id: me.id, reminder_due: true, per_page: 20 }).catch(() => null);
      if (!live || !page) return;
      const tracker = new ReminderTracker(JSON.parse(sessionStorage.getItem(SHOWN_KEY) ?? '[]') as string[]);
      const fresh = new Set(tracker.fresh(page.items.map((i) => i.data)).map((t) => t.id));
      if (fresh.size === 0) return;
      sessionStorage.setItem(SHOWN_KEY, JSON.stringify(tracker.keys()));
      setDue((current) => [...current, ...page.items.map((i) => i.data).filter((t) => fresh.has(t.id))]);
    };
    void check();
    const timer = setInterval(() => void check(), POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [me]);

  if (due.length === 0) return null;
  return (
    <div className="toasts" role="status" aria-label="Reminders">
      {due.map((task) => (
        <div key={task.id} className="toast">
          <b>Reminder</b> {task.content}
          <Link to="/tasks">Open tasks</Link>
          <button type="button" className="link" onClick={() => setDue(due.filter((t) => t.id !== task.id))} aria-label="Dismiss reminder">×</button>
        </div>
      ))}
    </div>
  );
}
