/**
 * When a record was written, where that is not now: a desktop replica sends
 * the moment its rep wrote a note, call, visit or task offline (the create's
 * `meta.written_at`), and the hub gives the record that `created_at` instead of
 * the moment the change reached it. Set only around one synchronous
 * create, so no other write sees it.
 */
export class WrittenAt {
  private at: string | null = null;

  /** Runs `write` with `at` as the written time of the records it creates (null: now). */
  during<T>(at: string | null, write: () => T): T {
    const outer = this.at;
    this.at = at;
    try {
      return write();
    } finally {
      this.at = outer;
    }
  }

  /** The written time in force, or null for now. */
  get current(): string | null {
    return this.at;
  }
}
