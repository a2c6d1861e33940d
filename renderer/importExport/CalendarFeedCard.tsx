import { useEffect, useRef, useState } from 'react';
import { api, isDesktop } from '../api/client.js';
import { formatWhen } from '../tasks/taskDates.js';
import { CopyButton } from '../shell/CopyButton.js';
import './importExport.css';
import { refusalText } from '../api/formErrors.js';
import { askToConfirm } from '../shell/ConfirmDialog.js';

const FEED_PATH = '/v2/users/self/calendar_feed';

interface FeedStatus {
  enabled: boolean;
  created_at: string | null;
}

interface NewFeed {
  url: string;
  created_at: string;
}

/**
 * Settings → Calendar feed: a private iCalendar URL of the user's tasks that
 * calendar apps subscribe to. The hub shows the URL once, when the feed is
 * turned on or its address replaced; it keeps only a hash of the secret in it.
 */
export function CalendarFeedCard() {
  const [status, setStatus] = useState<FeedStatus | null>(null);
  const [created, setCreated] = useState<NewFeed | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (isDesktop) return;
    let live = true;
    api.get<FeedStatus>(FEED_PATH).then(
      (answer) => live && setStatus(answer),
      (err) => live && setError(refusalText(err, 'The calendar feed could not be loaded.')),
    );
    return () => {
      live = false;
    };
  }, []);

  const turnOn = async () => {
    setBusy(true);
    try {
      const feed = await api.post<NewFeed>(FEED_PATH);
      setCreated(feed);
      setStatus({ enabled: true, created_at: feed.created_at });
      setError(null);
    } catch (err) {
      setError(refusalText(err, 'The calendar feed could not be turned on.'));
    } finally {
      setBusy(false);
    }
  };

  const turnOff = async () => {
    if (!(await askToConfirm({ title: 'Turn the calendar feed off?', detail: 'Calendars subscribed to it stop receiving your tasks.', confirm: 'Turn off' }))) return;
    setBusy(true);
    try {
      await api.remove(FEED_PATH);
      setCreated(null);
      setStatus({ enabled: false, created_at: null });
      setError(null);
    } catch (err) {
      setError(refusalText(err, 'The calendar feed could not be turned off.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card calendar-feed" aria-label="Calendar feed">
      <h2>Calendar feed</h2>
      <p className="muted">
        Your tasks with a due date (open ones, and those completed in the last 30 days) as a calendar that
        Google Calendar, Outlook or Apple Calendar subscribe to by URL and refresh on their own.
        Anyone with the URL sees your tasks: keep it private, and get a new one if it got out.
      </p>
      {isDesktop ? (
        <p className="notice" role="note">The feed is served by your team’s hub: open the hub in a browser to turn it on.</p>
      ) : (
        <>
          {created && <FeedUrl url={created.url} />}
          {status && !created && (
            <p role="status">{status.enabled ? `On since ${status.created_at ? formatWhen(status.created_at) : 'earlier'}. The URL was shown when it was turned on; get a new one to see it again.` : 'Off.'}</p>
          )}
          {error && <p className="form-error" role="alert">{error}</p>}
          {status && (
            <div className="actions">
              {status.enabled ? (
                <>
                  <button type="button" disabled={busy} onClick={() => void turnOn()}>Get a new URL</button>
                  <button type="button" className="danger" disabled={busy} onClick={() => void turnOff()}>Turn off</button>
                </>
              ) : (
                <button type="button" className="primary" disabled={busy} onClick={() => void turnOn()}>Turn on</button>
              )}
            </div>
          )}
          {status?.enabled && <p className="muted hint">A new URL replaces the old one: calendars subscribed to the old URL stop updating.</p>}
        </>
      )}
    </section>
  );
}

/** The feed's URL, shown this once: selectable, with a copy button where the clipboard is available. */
function FeedUrl({ url }: { url: string }) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    box.current?.focus();
  }, [url]);

  return (
    <div className="secret-box" role="region" aria-label="Calendar feed URL" tabIndex={-1} ref={box}>
      <p className="warning"><strong>Copy the URL now: it is not shown again.</strong> In your calendar app, add a calendar “from URL” (or “subscribe”) and paste it.</p>
      <input type="text" readOnly value={url} aria-label="Feed URL" className="feed-url" onFocus={(e) => e.target.select()} />
      <div className="actions">
        <CopyButton text={url} label="Copy URL" />
      </div>
    </div>
  );
}
