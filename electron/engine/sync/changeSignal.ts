import type { ChangeLog } from '../changes/changeLog.js';
import { WatchedValue } from '../watchedValue.js';

/** How often the change log's newest revision is looked at while someone listens. */
export const CHANGE_CHECK_MS = 200;

/**
 * Tells listeners (the hub's change streams to its replicas) that the change
 * log moved, so devices pull within a moment of an edit instead of at their
 * next poll. It reads the newest revision (one index seek) every
 * CHANGE_CHECK_MS while anyone listens, rather than hooking the writes: that
 * also sees changes another process made to the same database (the command
 * line, a second hub process), and a burst of writes becomes one signal.
 * Which records changed, and whether a device may see them, is the sync
 * session's business: a signal only says "ask".
 */
export function changeSignal(changes: ChangeLog): WatchedValue<number> {
  return new WatchedValue(() => changes.currentRevision(), CHANGE_CHECK_MS);
}
