/**
 * Holds a replica's local writes while another connection holds its
 * database's write lock for long: the end of a first sync, whose worker
 * builds the indexes in one transaction (over ten seconds at a million
 * records, past the engine's busy timeout, after which a write would fail).
 * A write waits here instead, without blocking the thread, and runs once the
 * lock is free; reads go on meanwhile.
 */
export class WriteGate {
  private readonly holders = new Set<Promise<void>>();

  /** Holds writes until `work` settles (done or failed); returns it. */
  holdWhile<T>(work: Promise<T>): Promise<T> {
    const settled: Promise<void> = work.then(
      () => this.release(settled),
      () => this.release(settled),
    );
    this.holders.add(settled);
    return work;
  }

  get held(): boolean {
    return this.holders.size > 0;
  }

  /** Resolves when nothing holds writes (at once when nothing does). */
  async open(): Promise<void> {
    while (this.holders.size > 0) await Promise.all(this.holders);
  }

  private release(holder: Promise<void>): void {
    this.holders.delete(holder);
  }
}
