import { create } from 'zustand';
import type { ReplicaStatus } from '../../shared/resources/replica.js';
import { answeredLocally, api, ApiFailure, httpTransport, onEngineEvent } from '../api/client.js';

const POLL_MS = 2000;

interface ReplicaStoreState {
  /** `replica` once the status answered; `hub` when the engine has no replica endpoints (404). */
  kind: 'unknown' | 'replica' | 'hub';
  status: ReplicaStatus | null;
  /** True while a "Sync now" this window asked for runs. */
  syncing: boolean;
  refresh(): Promise<void>;
  syncNow(): Promise<void>;
}

/** The replica's sync status, followed while someone is signed in (nothing to show on a plain hub). */
export const useReplica = create<ReplicaStoreState>((set) => ({
  kind: 'unknown',
  status: null,
  syncing: false,
  async refresh() {
    try {
      set({ kind: 'replica', status: await api.get<ReplicaStatus>('/v2/replica/status') });
    } catch (err) {
      // A plain hub has no /v2/replica/…; anything else (the engine restarting, say) keeps the last status.
      if (err instanceof ApiFailure && err.status === 404) set({ kind: 'hub', status: null });
    }
  },
  async syncNow() {
    set({ syncing: true });
    try {
      set({ status: await api.post<ReplicaStatus>('/v2/replica/sync') });
    } catch {
      // The next poll shows how things stand.
    } finally {
      set({ syncing: false });
    }
  },
}));

/**
 * Keeps the status current until stopped (returns the stop), or until the
 * engine turns out to be a plain hub. The replica pushes every change: in the
 * desktop app as the bridge's `sync-status` event, in a browser as a
 * server-sent event (`/v2/replica/events`). Should that stream drop, the
 * status is asked for every POLL_MS, and the stream tried again.
 */
export function followReplicaStatus(): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const abort = new AbortController();
  const pushed = onEngineEvent('sync-status', (payload) => useReplica.setState({ kind: 'replica', status: payload as ReplicaStatus }));
  const tick = async () => {
    await useReplica.getState().refresh();
    if (stopped || useReplica.getState().kind === 'hub' || pushed) return;
    if (httpTransport && !answeredLocally() && useReplica.getState().kind === 'replica') {
      await httpTransport.stream('/v2/replica/events', (event, data) => {
        if (event === 'status') useReplica.setState({ status: JSON.parse(data) as ReplicaStatus });
      }, abort.signal).catch(() => undefined);
    }
    if (!stopped) timer = setTimeout(() => void tick(), POLL_MS);
  };
  void tick();
  return () => {
    stopped = true;
    pushed?.();
    abort.abort();
    clearTimeout(timer);
  };
}
