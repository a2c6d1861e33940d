import { useEffect, useReducer, useState } from 'react';
import type { ReplicaStatus, SyncConflict, SyncIssue } from '../../shared/resources/replica.js';
import { contactDisplayName, type Contact } from '../../shared/resources/contact.js';
import { leadDisplayName, type Lead } from '../../shared/resources/lead.js';
import { isErrorEnvelope } from '../../shared/errors.js';
import { api, ApiFailure } from '../api/client.js';
import { Link } from '../router/Link.js';
import { formatWhen } from '../tasks/taskDates.js';
import { useReplica } from './replicaStore.js';
import { ListCount } from '../lists/ListCount.js';
import { inWords, refusalText } from '../api/formErrors.js';
import { humanized } from '../shell/words.js';
import { formatMoney } from '../deals/money.js';
import { ConflictList, FieldValue } from './ConflictPanel.js';
import { useConflicts } from './useConflicts.js';
import { nameOf, useNames } from './useNames.js';
import { fieldKind, fieldLabel, isEmpty } from './conflictFields.js';
import { askToConfirm } from '../shell/ConfirmDialog.js';

const VERBS: Record<SyncIssue['method'], string> = { POST: 'Create', PUT: 'Change', DELETE: 'Delete' };
const COLLECTIONS: Record<string, string> = {
  contact: '/v2/contacts', lead: '/v2/leads', deal: '/v2/deals', task: '/v2/tasks', note: '/v2/notes', call: '/v2/calls',
  visit: '/v2/visits', document: '/v2/documents', text_message: '/v2/text_messages',
};

/** "Create contact", "Change task", "Delete note". */
function describeIssue(issue: SyncIssue): string {
  return `${VERBS[issue.method] ?? issue.method} ${issue.resource_type.replace(/_/g, ' ')}`;
}

/** The hub's reason, from its error envelope (or the device's own, shaped alike), in words (no `last_name`). */
function reasonOf(error: unknown): string {
  // Worded as a form words a refusal (each refused field a rep's sentence), from the envelope the hub answered.
  if (isErrorEnvelope(error) && error.errors.length > 0) return refusalText(new ApiFailure(422, error), 'The hub refused this change.');
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
  if (issue.resource_type === 'lead') return { to: `/leads/${issue.record_id}`, label: leadDisplayName(record as unknown as Lead) || 'Open the lead' };
  if (issue.resource_type === 'deal') return { to: `/deals/${issue.record_id}`, label: String(record.name ?? '') || 'Open the deal' };
  const text = String(record.content ?? record.summary ?? record.name ?? '');
  const label = text.length > 60 ? `${text.slice(0, 59)}…` : text || `Open the ${issue.resource_type.replace(/_/g, ' ')}`;
  if (record.resource_type === 'contact' && typeof record.resource_id === 'number') return { to: `/contacts/${record.resource_id}`, label };
  if (issue.resource_type === 'task') return { to: '/tasks', label };
  return null;
}

/** Where a conflict's record shows in the app (a task's on the Tasks screen), and where its name is read. */
function conflictRecordOf(type: string, id: number): { to: string | null; path: string | null } {
  const collection = COLLECTIONS[type] ?? null;
  const to = type === 'contact' || type === 'lead' || type === 'deal' ? `/${type}s/${id}` : type === 'task' ? '/tasks' : null;
  return { to, path: collection && `${collection}/${id}` };
}

/** The conflicts of one record under its name (a link to its page), each field with its choices. */
function ConflictGroup({ type, id, conflicts, resolve }: { type: string; id: number; conflicts: SyncConflict[]; resolve: Parameters<typeof ConflictList>[0]['resolve'] }) {
  const { to, path } = conflictRecordOf(type, id);
  const names = useNames(path ? [path] : []);
  const kind = humanized(type);
  const name = (path && names.get(path)) || `${kind} ${id}`;
  return (
    <li className="conflict-group" aria-label={name}>
      <h3>
        {to ? <Link to={to}>{name}</Link> : name} <span className="muted kind-label">{kind}</span>
      </h3>
      <ConflictList conflicts={conflicts} resolve={resolve} label={`Conflicts of ${name}`} level={4} />
    </li>
  );
}

/** Open conflicts by record, in the order their first conflict came. */
function byRecord(conflicts: SyncConflict[]): { type: string; id: number; conflicts: SyncConflict[] }[] {
  const groups = new Map<string, { type: string; id: number; conflicts: SyncConflict[] }>();
  for (const c of conflicts) {
    const key = `${c.resource_type}:${c.record_id}`;
    if (!groups.has(key)) groups.set(key, { type: c.resource_type, id: c.record_id, conflicts: [] });
    groups.get(key)!.conflicts.push(c);
  }
  return [...groups.values()];
}

/**
 * A replica's sync issues: fields changed both here and on the hub
 * (conflicts: keep mine, keep theirs, or another value), and local changes
 * the hub refused, with its reason; each can be sent again (Retry) or given
 * up (Discard: the record goes back to the hub's state, or away if the hub
 * never had it); a change to a record someone deleted on the hub can bring
 * the record back (Recreate it).
 */
export function SyncIssuesScreen() {
  const [issues, setIssues] = useState<SyncIssue[] | null>(null);
  const [total, setTotal] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [version, reload] = useReducer((v: number) => v + 1, 0);
  const { conflicts, total: conflictCount, resolve } = useConflicts(null);
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
  const recreate = async (issue: SyncIssue) => {
    useReplica.setState({ status: await api.post<ReplicaStatus>(`/v2/replica/issues/${issue.id}/recreate`) });
    reload();
  };

  // A heading of its own beside the conflicts, or over refused changes; an empty screen just says all is well.
  const headed = !problem && (conflictCount > 0 || (issues?.length ?? 0) > 0);
  return (
    <section className="screen sync-issues-screen">
      <header className="screen-header">
        <h1>Sync issues</h1>
      </header>
      {conflictCount > 0 && (
        <section className="card sync-conflicts" aria-labelledby="sync-conflicts-heading">
          <h2 id="sync-conflicts-heading">Conflicts <span className="muted">({conflictCount})</span></h2>
          <p className="muted">
            Fields you changed on this device that someone also changed on the hub. Each record shows the hub’s value
            until you choose: keep yours, keep theirs, or type another value.
          </p>
          {conflicts.length === 0 ? <p className="muted">Loading…</p> : (
            <ul className="conflict-groups" aria-label="Conflicts by record">
              {byRecord(conflicts).map((group) => <ConflictGroup key={`${group.type}:${group.id}`} {...group} resolve={resolve} />)}
            </ul>
          )}
        </section>
      )}
      <section className="card" aria-labelledby={headed ? 'sync-refused-heading' : undefined}>
        {headed && (
          <h2 id="sync-refused-heading">
            Changes the hub refused {issues && issues.length > 0 && <span className="muted">({total ?? issues.length})</span>}
          </h2>
        )}
        {issues && total !== null && total > issues.length && <ListCount shown={issues.length} total={total} />}
        {!problem && issues && issues.length > 0 && (
          <p className="muted">
            Changes made on this device that the hub refused. Retry sends one again (once its cause is fixed);
            Discard gives it up, and the record goes back to how the hub has it.
          </p>
        )}
        {problem && <p className="form-error" role="alert">{problem}</p>}
        {!problem && issues === null && <p className="muted">Loading…</p>}
        {!problem && issues?.length === 0 && <p className="empty">No sync issues: every change reached the hub.</p>}
        {!problem && issues && issues.length > 0 && (
          <ul className="sync-issues" aria-label="Sync issues">
            {issues.map((issue) => (
              <IssueItem key={issue.id} issue={issue} onRetry={() => retry(issue)} onDiscard={() => discard(issue)} onRecreate={() => recreate(issue)} />
            ))}
          </ul>
        )}
      </section>
    </section>
  );
}

/** The fields a change sent, one path each (`title`, `address.city`, `custom_fields.Size`). */
function changedPaths(data: Record<string, unknown> | null): [string, unknown][] {
  if (!data) return [];
  return Object.entries(data).flatMap(([field, value]): [string, unknown][] => {
    if (field === 'id') return [];
    if (value && typeof value === 'object' && !Array.isArray(value) && (field === 'custom_fields' || field.endsWith('address'))) {
      return Object.entries(value as Record<string, unknown>).map(([key, inner]) => [`${field}.${key}`, inner]);
    }
    return [[field, value]];
  });
}

/** A record's fields worth showing of what would be lost, in this order (its name comes first, on its own). */
const MAIN_FIELDS = ['organization_name', 'title', 'email', 'phone', 'mobile', 'website', 'status', 'content', 'due_date', 'estimated_close_date'];

/** A record's main fields as the device holds it: what would be lost with it. */
function RecordFields({ type, record }: { type: string; record: Record<string, unknown> }) {
  const name = nameOf(record);
  const value = typeof record.value === 'string' && typeof record.currency === 'string' ? formatMoney(record.value, record.currency) : null;
  const shown = MAIN_FIELDS.filter((f) => f in record && !isEmpty(record[f]) && !(f === 'content' && name === record.content));
  return (
    <dl className="details compact">
      {name && <><dt>Name</dt><dd>{name}</dd></>}
      {value && <><dt>Value</dt><dd>{value}</dd></>}
      {shown.map((field) => (
        <FieldRow key={field} type={type} field={field} value={record[field]} />
      ))}
    </dl>
  );
}

/** One field and its value, labelled as the record's form labels it. */
function FieldRow({ type, field, value }: { type: string; field: string; value: unknown }) {
  return (
    <>
      <dt>{fieldLabel(type, field)}</dt>
      <dd><FieldValue value={value} kind={fieldKind(type, field, [value])} /></dd>
    </>
  );
}

function IssueItem({ issue, onRetry, onDiscard, onRecreate }: { issue: SyncIssue; onRetry(): Promise<void>; onDiscard(): Promise<void>; onRecreate(): Promise<void> }) {
  const [link, setLink] = useState<RecordLink | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const what = describeIssue(issue);
  const noun = issue.resource_type.replace(/_/g, ' ');
  const deleted = issue.deleted_on_hub;
  const sent = changedPaths(issue.data);

  useEffect(() => {
    let live = true;
    void linkOf(issue).then((found) => live && setLink(found));
    return () => {
      live = false;
    };
  }, [issue]);

  const act = async (action: () => Promise<void>, failed: string) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(refusalText(err, failed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <li className={`sync-issue${deleted ? ' deleted-on-hub' : ''}`} aria-label={what}>
      <div className="sync-issue-main">
        <div>
          <strong>{what}</strong>{' '}
          {link && <Link to={link.to}>{link.label}</Link>}
          <span className="muted when">{formatWhen(issue.created_at)}</span>
        </div>
        {deleted ? (
          <>
            <div className="reason">
              Someone else deleted this {noun} on the hub, so your change could not be saved there. Recreate it to put the {noun} back
              on the hub as this device has it, with your change; discard your change to let it go from this device too.
            </div>
            <div className="lost">
              <div className="lost-part">
                <h4>What would be lost</h4>
                {issue.record ? <RecordFields type={issue.resource_type} record={issue.record} /> : <p className="muted">This device no longer holds the {noun}.</p>}
              </div>
              {sent.length > 0 && (
                <div className="lost-part">
                  <h4>Your change</h4>
                  <dl className="details compact">
                    {sent.map(([field, value]) => <FieldRow key={field} type={issue.resource_type} field={field} value={value} />)}
                  </dl>
                </div>
              )}
            </div>
          </>
        ) : (
          <div className="reason">The hub answered: {reasonOf(issue.error)}</div>
        )}
        {error && <p className="form-error" role="alert">{error}</p>}
      </div>
      <div className="actions">
        {deleted && issue.record
          ? <button type="button" className="primary" disabled={busy} onClick={() => void act(onRecreate, `The ${noun} could not be recreated.`)}>Recreate it</button>
          : <button type="button" disabled={busy} onClick={() => void act(onRetry, 'The change could not be sent again.')}>Retry</button>}
        <button type="button" className="danger" disabled={busy} onClick={() => void askToConfirm({
          title: 'Discard this change?', detail: deleted ? `The ${noun} goes from this device too.` : undefined,
          confirm: 'Discard', doing: 'Discarding…', action: onDiscard, failed: 'The change could not be discarded.',
        })}>Discard</button>
      </div>
    </li>
  );
}
