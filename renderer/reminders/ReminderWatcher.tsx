import { useEffect, useState } from 'react';
import { isDesktop } from '../api/client.js';
import { useSession } from '../session/sessionStore.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { useTaskCounts } from '../tasks/taskCountsStore.js';
import { useNotificationCentre } from './centreStore.js';
import { freshReminders, type FreshReminders } from './freshReminders.js';

const POLL_MS = 30_000;
/** The summary goes by itself: the bell keeps the count, the centre the reminders. */
const SUMMARY_MS = 10_000;

/**
 * Keeps the bell's count current (every 30 seconds, after a sync) and, when
 * reminders come due, says so once in one summary that fades, instead of a
 * toast per reminder. The desktop app says it with system notifications from
 * its main process instead, so it shows no summary.
 */
export function ReminderWatcher() {
  const me = useSession((s) => s.user);
  const [summary, setSummary] = useState<FreshReminders | null>(null);
  useRefreshOnSync(() => void useTaskCounts.getState().refresh());

  useEffect(() => {
    if (!me) return;
    let live = true;
    const check = async () => {
      // The counts first: the summary may say how many are due in all.
      const [, fresh] = await Promise.all([useTaskCounts.getState().refresh(), freshReminders(me.id).catch(() => null)]);
      if (live && fresh && fresh.tasks.length > 0 && !isDesktop) setSummary(fresh);
    };
    void check();
    const timer = setInterval(() => void check(), POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [me]);

  useEffect(() => {
    if (!summary) return;
    const timer = setTimeout(() => setSummary(null), SUMMARY_MS);
    return () => clearTimeout(timer);
  }, [summary]);

  return summary && <ReminderSummary summary={summary} onClose={() => setSummary(null)} />;
}

function ReminderSummary({ summary, onClose }: { summary: FreshReminders; onClose(): void }) {
  const total = useTaskCounts((s) => s.counts?.reminders_due ?? null);
  const open = () => {
    useNotificationCentre.getState().setOpen(true);
    onClose();
  };
  const [first] = summary.tasks;
  const many = summary.allNew && total !== null ? `${total} reminders are due` : `${summary.tasks.length} more reminders are due`;
  return (
    <div className="toasts">
      <div className="toast reminder-summary" role="status">
        {summary.tasks.length === 1 ? <span><b>Reminder</b> {first.content}</span> : <b>{many}</b>}
        <button type="button" className="link" onClick={open}>Show</button>
        <button type="button" className="link" onClick={onClose} aria-label="Close the summary">×</button>
      </div>
    </div>
  );
}
