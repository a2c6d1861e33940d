/**
 * A value that listeners are told about when it changes, found by reading it
 * every `everyMs` while anyone listens (and not at all otherwise). Reading
 * beats hooking every writer where the value is cheap to read and its
 * writers are many, or in other processes. `key` says when two readings are
 * the same value.
 */
export class WatchedValue<T> {
  private readonly listeners = new Set<(value: T) => void>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private seen: unknown;

  constructor(private readonly read: () => T, private readonly everyMs: number, private readonly key: (value: T) => unknown = (value) => value) {}

  /** Calls `listener` with each new value; returns the unsubscribe. */
  listen(listener: (value: T) => void): () => void {
    if (this.listeners.size === 0) this.seen = this.key(this.read());
    this.listeners.add(listener);
    this.timer ??= setInterval(() => this.check(), this.everyMs);
    this.timer.unref?.();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  private check(): void {
    let value: T;
    try {
      value = this.read();
    } catch {
      // The database is closing under a last tick: the listeners are going anyway.
      return;
    }
    const key = this.key(value);
    if (key === this.seen) return;
    this.seen = key;
    for (const listener of this.listeners) listener(value);
  }
}
