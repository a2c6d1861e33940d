import { useCallback, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useTaskCounts } from '../tasks/taskCountsStore.js';
import { useNotificationCentre } from './centreStore.js';
import { NotificationPanel } from './NotificationPanel.js';
import './notifications.css';

function BellIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z" />
    </svg>
  );
}

/** The shell's bell: how many reminders are due, and the notification centre on a click. */
export function NotificationBell() {
  const count = useTaskCounts((s) => s.counts?.reminders_due ?? 0);
  const { open, setOpen } = useNotificationCentre();
  const bell = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), [setOpen]);
  // Neither "reminder" nor "due" in the name: task forms have Reminder and Due fields, which their labels must find alone.
  const label = `Notifications (${count === 0 ? 'none' : count})`;
  const shown = count > 99 ? '99+' : String(count);
  return (
    <>
      {/* Named by its content ("Notifications (12)"), not an aria-label, whose words would have to contain the badge's as shown ("99+"). */}
      <button ref={bell} type="button" className="bell" title={label} aria-haspopup="dialog" aria-expanded={open} onClick={() => setOpen(!open)}>
        <BellIcon />
        <span className="visually-hidden">{label}</span>
        {count > 0 && <span className="bell-count" aria-hidden="true">{shown}</span>}
      </button>
      {/* In the page's body, not the sidebar: the centre is a popover of its own, styled as one. */}
      {open && createPortal(<NotificationPanel anchor={bell} onClose={close} />, document.body)}
    </>
  );
}
