import type { ReplicaStatus } from '../../shared/resources/replica.js';
import { Link } from '../router/Link.js';
import { formatWhen } from '../tasks/taskDates.js';
import { useReplica } from './replicaStore.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The few words the sidebar shows for a status: the state, and the changes still to reach the hub whenever there are any. */
function label(status: ReplicaStatus, syncing: boolean): string {
  const waiting = status.pending > 0 ? `${status.pending} pending` : '';
  if (syncing || status.state === 'syncing') return waiting ? `Syncing · ${waiting}` : 'Syncing…';
  if (status.state === 'offline') return waiting ? `Offline · ${waiting}` : 'Offline';
  return waiting || 'Up to date';
}

/** The longer story, as the tooltip (and accessible description). */
function details(status: ReplicaStatus): string {
  const parts = [
    status.pending > 0 ? `${plural(status.pending, 'change')} not yet on the hub.` : 'Every change is on the hub.',
    status.last_synced_at ? `Last synced ${formatWhen(status.last_synced_at)}.` : 'Not synced yet.',
  ];
  if (status.last_error) parts.push(status.last_error);
  return parts.join(' ');
}

/** What needs the rep's attention, shortly: "1 conflict · 2 sync issues"; empty when nothing does. */
export function attentionText(status: Pick<ReplicaStatus, 'conflicts' | 'issues'>): string {
  const parts = [];
  if (status.conflicts > 0) parts.push(plural(status.conflicts, 'conflict'));
  if (status.issues > 0) parts.push(plural(status.issues, 'sync issue'));
  return parts.join(' · ');
}

/** The state in a few words ("Offline · 2 pending"), announced as it changes, with the longer story as its tooltip. */
function SyncState({ status, syncing }: { status: ReplicaStatus; syncing: boolean }) {
  const state = syncing ? 'syncing' : status.state;
  return <p role="status" aria-label="Sync status" title={details(status)} className={`sync-state ${state}`}>{label(status, syncing)}</p>;
}

/** "1 conflict · 2 sync issues", a link to Sync issues where they are settled; nothing when there are none. */
function AttentionLink({ status }: { status: ReplicaStatus }) {
  const attention = attentionText(status);
  return attention ? <Link to="/sync-issues" className="sync-issues-link" title="Changes that need your attention">{attention}</Link> : null;
}

/**
 * On a replica only: how its sync stands, its conflicts and sync issues (to settle in Sync issues), and "Sync now".
 * The sidebar's; on a phone the state and the link show in the top bar instead (HeaderSyncState), the button stays in the drawer.
 */
export function SyncIndicator() {
  const { kind, status, syncing, syncNow } = useReplica();
  if (kind !== 'replica' || !status) return null;
  return (
    <div className="sync">
      <SyncState status={status} syncing={syncing} />
      <AttentionLink status={status} />
      <button type="button" className="link" disabled={syncing} onClick={() => void syncNow()}>Sync now</button>
    </div>
  );
}

/**
 * The phone's top bar: the replica's state and what needs attention, always in sight while the
 * navigation drawer is shut (styles.css shows it below the phone width only, where the sidebar's is hidden).
 * Nothing on a hub's web page, which has no replica.
 */
export function HeaderSyncState() {
  const { kind, status, syncing } = useReplica();
  if (kind !== 'replica' || !status) return null;
  return (
    <div className="topbar-sync">
      <SyncState status={status} syncing={syncing} />
      <AttentionLink status={status} />
    </div>
  );
}
