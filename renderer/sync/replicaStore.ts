import { create } from 'zustand';
import type { ReplicaStatus } from '../../shared/resources/replica.js';
import { api, ApiFailure } from '../api/client.js';

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

/** The replica's sync status, polled while someone is signed in (nothing to show on a plain hub). */
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

/** Polls the status every POLL_MS until stopped, or until the engine turns out to be a plain hub. Returns the stop. */
export function pollReplicaStatus(): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = async () => {
    await useReplica.getState().refresh();
    if (!stopped && useReplica.getState().kind !== 'hub') timer = setTimeout(() => void tick(), POLL_MS);
  };
  void tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
