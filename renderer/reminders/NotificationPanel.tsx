import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type RefObject } from 'react';
import type { Task } from '../../shared/resources/task.js';
import { refusalText } from '../api/formErrors.js';
import { useSession } from '../session/sessionStore.js';
import { useRouter } from '../router/routerStore.js';
import { Link } from '../router/Link.js';
import { usePagedList } from '../leads/usePagedList.js';
import { recordOf } from '../records/records.js';
import { useRecordSummaries } from '../records/useRecordSummaries.js';
import { useTaskChanges, useTaskCounts } from '../tasks/taskCountsStore.js';
import { ReminderItem } from './ReminderItem.js';

const PER_PAGE = 20;
const MARGIN = 8;

/** Under the bell, inside the window whatever its width (a phone's included). */
function placeBelow(anchor: HTMLElement): CSSProperties {
  const rect = anchor.getBoundingClientRect();
  const width = Math.min(420, window.innerWidth - 2 * MARGIN);
  const left = Math.min(Math.max(MARGIN, rect.left), window.innerWidth - width - MARGIN);
  const top = Math.min(rect.bottom + MARGIN, window.innerHeight / 3);
  return { left, top, width, maxHeight: window.innerHeight - top - MARGIN };
}

/** Closes the panel on Escape, on a click outside it and the bell, and when the app goes to another screen. */
function useDismissal(panel: RefObject<HTMLElement | null>, anchor: RefObject<HTMLElement | null>, onClose: () => void): void {
  const path = useRouter((s) => s.path);
  const opened = useRef(path);
  useEffect(() => {
    if (path !== opened.current) onClose();
  }, [path, onClose]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !anchor.current?.contains(target)) onClose();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [panel, anchor, onClose]);
}

/**
 * The notification centre: the user's due reminders, latest first, a page at
 * a time, each with Done, Snooze and Dismiss, and its record a click away.
 */
export function NotificationPanel({ anchor, onClose }: { anchor: RefObject<HTMLElement | null>; onClose: () => void }) {
  const me = useSession((s) => s.user);
  const count = useTaskCounts((s) => s.counts?.reminders_due ?? null);
  const list = usePagedList<Task>('/v2/tasks', { owner_id: me?.id ?? 0, reminder_due: true, sort_by: 'remind_at:desc' }, PER_PAGE);
  useTaskChanges(list.refresh);
  const summaries = useRecordSummaries(list.rows.map(recordOf));
  const [status, setStatus] = useState<string | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<CSSProperties>({});
  useLayoutEffect(() => {
    const update = () => anchor.current && setPlace(placeBelow(anchor.current));
    update();
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, [anchor]);
  useDismissal(panel, anchor, onClose);

  const act = (action: () => Promise<string>) => {
    action().then(setStatus, (err) => setStatus(refusalText(err, 'That did not work. Try again.')));
  };

  return (
    <div ref={panel} className="notification-centre" role="dialog" aria-label="Notifications" style={place}>
      <header>
        <h2>Reminders</h2>
        {count !== null && <span className="muted">{count === 0 ? 'none due' : `${count} due`}</span>}
        <button type="button" className="link close" aria-label="Close notifications" onClick={onClose}>×</button>
      </header>
      <p className="centre-status" role="status">{status}</p>
      {list.rows.length === 0 && !list.loading && <p className="muted">No reminders are due. Reminders you snooze come back here at their new time.</p>}
      <ul className="reminders">
        {list.rows.map((task) => <ReminderItem key={task.id} task={task} summaries={summaries} onAct={act} />)}
      </ul>
      {list.hasMore && <button type="button" onClick={list.loadMore} disabled={list.loading}>Show more</button>}
      <footer><Link to="/tasks">All tasks</Link></footer>
    </div>
  );
}
