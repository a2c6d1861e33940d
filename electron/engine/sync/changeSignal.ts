import type { ChangeLog } from './changeLog.js';

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
export class ChangeSignal {
  private readonly listeners = new Set<(revision: number) => void>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private seen = 0;

  constructor(private readonly changes: ChangeLog) {}

  /** Calls `listener` with the new revision after each move; returns the unsubscribe. */
  listen(listener: (revision: number) => void): () => void {
    if (this.listeners.size === 0) this.seen = this.changes.currentRevision();
    this.listeners.add(listener);
    this.timer ??= setInterval(() => this.check(), CHANGE_CHECK_MS);
    this.timer.unref?.();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  /** The newest revision now. */
  get revision(): number {
    return this.changes.currentRevision();
  }

  private check(): void {
    let revision: number;
    try {
      revision = this.changes.currentRevision();
    } catch {
      // The database is closing under a last tick: the streams are ending anyway.
      return;
    }
    if (revision === this.seen) return;
    this.seen = revision;
    for (const listener of this.listeners) listener(revision);
  }
}
