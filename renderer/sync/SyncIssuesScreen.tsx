import { useEffect, useReducer, useRef, useState } from 'react';
import type { ReplicaStatus, SyncIssue } from '../../shared/resources/replica.js';
import { contactDisplayName, type Contact } from '../../shared/resources/contact.js';
import { isErrorEnvelope } from '../../shared/errors.js';
import { api, ApiFailure } from '../api/client.js';
import { Link } from '../router/Link.js';
import { formatWhen } from '../tasks/taskDates.js';
import { useReplica } from './replicaStore.js';
import { inWords } from '../api/formErrors.js';
import { ListCount } from '../lists/ListCount.js';
import { refusalText } from '../api/formErrors.js';

const VERBS: Record<SyncIssue['method'], string> = { POST: 'Create', PUT: 'Change', DELETE: 'Delete' };
const COLLECTIONS: Record<string, string> = {
  contact: '/v2/contacts', task: '/v2/tasks', note: '/v2/notes', call: '/v2/calls',
  visit: '/v2/visits', document: '/v2/documents', text_message: '/v2/text_messages',
};

/** "Create contact", "Change task", "Delete note". */
function describeIssue(issue: SyncIssue): string {
  return `${VERBS[issue.method] ?? issue.method} ${issue.resource_type.replace(/_/g, ' ')}`;
}

/** The hub's reason, from its error envelope (or the device's own, shaped alike), in words (no `last_name`). */
function reasonOf(error: unknown): string {
  if (isErrorEnvelope(error) && error.errors.length > 0) return error.errors.map((e) => inWords(e.error.message)).join(' ');
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? inWords(message) : 'The hub refused this change.';
}

interface RecordLink {
  to: string;
  label: string;
}

/** Where the record of an issue shows in the app, when it is still on this device. */
async function linkOf(issue: SyncIssue): Promise<RecordLink | null> {
  const collection = COLLECTIONS[issue.resource_type];
  if (!collection || issue.method === 'DELETE') return null;
  const record = await api.get<Record<string, unknown>>(`${collection}/${issue.record_id}`).catch(() => null);
  if (!record) return null;
  if (issue.resource_type === 'contact') return { to: `/contacts/${issue.record_id}`, label: contactDisplayName(record as unknown as Contact) || 'Open the contact' };
  const text = String(record.content ?? record.summary ?? record.name ?? '');
  const label = text.length > 60 ? `${text.slice(0, 59)}…` : text || `Open the ${issue.resource_type.replace(/_/g, ' ')}`;
  if (record.resource_type === 'contact' && typeof record.resource_id === 'number') return { to: `/contacts/${record.resource_id}`, label };
  if (issue.resource_type === 'task') return { to: '/tasks', label };
  return null;
}

/**
 * A replica's sync issues: local changes the hub refused, with its reason;
 * each can be sent again (Retry) or given up (Discard: the record goes back
 * to the hub's state, or away if the hub never had it).
 */
export function SyncIssuesScreen() {
  const [issues, setIssues] = useState<SyncIssue[] | null>(null);
  const [total, setTotal] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [version, reload] = useReducer((v: number) => v + 1, 0);
  // Load again after every sync and local change: issues come and go with them.
  const synced = useReplica((s) => (s.status ? `${s.status.issues}:${s.status.last_synced_at}:${s.status.local_revision}` : ''));

  useEffect(() => {
    let live = true;
    api.list<SyncIssue>('/v2/replica/issues', { per_page: 100, count: true }).then(
      (page) => {
        if (!live) return;
        setIssues(page.items.map((i) => i.data));
        setTotal(page.meta.total_count ?? null);
        setProblem(null);
      },
      (err) => {
        if (!live) return;
        setProblem(err instanceof ApiFailure && err.status === 404
          ? 'Sync issues are kept by a device copy of the hub; this is the hub itself, which has none.'
          : 'The sync issues could not be loaded.');
      },
    );
    return () => {
      live = false;
    };
  }, [version, synced]);

  const retry = async (issue: SyncIssue) => {
    useReplica.setState({ status: await api.post<ReplicaStatus>(`/v2/replica/issues/${issue.id}/retry`) });
    reload();
  };
  const discard = async (issue: SyncIssue) => {
    await api.remove(`/v2/replica/issues/${issue.id}`);
    reload();
    void useReplica.getState().refresh();
  };

  return (
    <section className="screen sync-issues-screen">
      <header className="screen-header">
        <h1>Sync issues</h1>
        {issues && issues.length > 0 && <ListCount shown={issues.length} total={total} />}
      </header>
      <p className="muted">
        Changes made on this device that the hub refused. Retry sends one again (once its cause is fixed);
        Discard gives it up, and the record goes back to how the hub has it.
      </p>
      <div className="card">
        {problem && <p className="form-error" role="alert">{problem}</p>}
        {!problem && issues === null && <p className="muted">Loading…</p>}
        {!problem && issues?.length === 0 && <p className="empty">No sync issues: every change reached the hub.</p>}
        {!problem && issues && issues.length > 0 && (
          <ul className="sync-issues" aria-label="Sync issues">
            {issues.map((issue) => <IssueItem key={issue.id} issue={issue} onRetry={() => retry(issue)} onDiscard={() => discard(issue)} />)}
          </ul>
        )}
      </div>
    </section>
  );
}

function IssueItem({ issue, onRetry, onDiscard }: { issue: SyncIssue; onRetry(): Promise<void>; onDiscard(): Promise<void> }) {
  const [link, setLink] = useState<RecordLink | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const yes = useRef<HTMLButtonElement>(null);
  const what = describeIssue(issue);

  useEffect(() => {
    let live = true;
    void linkOf(issue).then((found) => live && setLink(found));
    return () => {
      live = false;
    };
  }, [issue]);

  useEffect(() => {
    if (confirming) yes.current?.focus();
  }, [confirming]);

  const act = async (action: () => Promise<void>, failed: string) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(refusalText(err, failed));
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <li className="sync-issue" aria-label={what}>
      <div className="sync-issue-main">
        <div>
          <strong>{what}</strong>{' '}
          {link && <Link to={link.to}>{link.label}</Link>}
          <span className="muted when">{formatWhen(issue.created_at)}</span>
        </div>
        <div className="reason">The hub answered: {reasonOf(issue.error)}</div>
        {error && <p className="form-error" role="alert">{error}</p>}
      </div>
      {confirming ? (
        <div className="confirm" role="group" aria-label={`Confirm discarding: ${what}`}>
          <span>Discard this change?</span>
          <button type="button" className="danger" ref={yes} disabled={busy} onClick={() => void act(onDiscard, 'The change could not be discarded.')}>
            {busy ? 'Discarding…' : 'Yes'}
          </button>
          <button type="button" disabled={busy} onClick={() => setConfirming(false)}>Cancel</button>
        </div>
      ) : (
        <div className="actions">
          <button type="button" disabled={busy} onClick={() => void act(onRetry, 'The change could not be sent again.')}>Retry</button>
          <button type="button" className="danger" disabled={busy} onClick={() => setConfirming(true)}>Discard</button>
        </div>
      )}
    </li>
  );
}
