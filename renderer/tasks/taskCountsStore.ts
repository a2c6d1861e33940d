import { useEffect, useEffectEvent, useRef } from 'react';
import { create } from 'zustand';
import type { TaskCounts } from '../../shared/resources/task.js';
import { api } from '../api/client.js';
import { useSession } from '../session/sessionStore.js';
import { localTimeZone } from './taskSections.js';

interface TaskCountsState {
  /** The signed-in user's counts per section and of due reminders; null until first loaded. */
  counts: TaskCounts | null;
  /** Bumped on every change to a task made in this window: lists of tasks load again. */
  version: number;
  refresh(): Promise<void>;
  /** A task was created, completed, snoozed…: counts and every list of tasks on screen follow. */
  changed(): void;
}

/**
 * One place for the task counts (the bell, the Tasks screen, Home) and for
 * "a task changed", so a reminder done in the notification centre leaves the
 * screen behind it right too.
 */
export const useTaskCounts = create<TaskCountsState>((set, get) => ({
  counts: null,
  version: 0,
  async refresh() {
    const me = useSession.getState().user;
    if (!me) return;
    const counts = await api.get<TaskCounts>('/v2/tasks/counts', { owner_id: me.id, tz: localTimeZone() }).catch(() => null);
    if (counts) set({ counts });
  },
  changed() {
    set((s) => ({ version: s.version + 1 }));
    void get().refresh();
  },
}));

/** Calls `reload` after each change to a task made in this window (not on mount: the screen has just loaded). */
export function useTaskChanges(reload: () => void): void {
  const version = useTaskCounts((s) => s.version);
  const seen = useRef(version);
  const onChange = useEffectEvent(reload);
  useEffect(() => {
    if (version === seen.current) return;
    seen.current = version;
    onChange();
  }, [version]);
}
