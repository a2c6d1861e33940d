import type pg from 'pg';

/** How long a lost listening connection waits before it tries again (doubling up to the longest). */
const RETRY_FIRST_MS = 200;
const RETRY_LONGEST_MS = 5_000;

/**
 * LISTEN on one PostgreSQL channel, on a connection of its own in this
 * thread's event loop (the engine's statements go through the synchronous
 * bridge, which cannot wait for notifications). A node keeps caches that are
 * right only while it hears every change: `onChange` runs on each
 * notification, and also whenever the connection is lost or made again,
 * since notifications sent meanwhile were missed. `listening` says whether
 * the cache may be trusted now.
 */
export class NoticeListener {
  private client: pg.Client | null = null;
  private closed = false;
  private retryMs = RETRY_FIRST_MS;
  private timer: NodeJS.Timeout | null = null;
  listening = false;

  constructor(private readonly url: string, private readonly channel: string, private readonly onChange: () => void) {
    void this.connect();
  }

  /** Resolves once the channel is listened to (for tests and start-up); false if it could not be. */
  async ready(timeoutMs = 5_000): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    while (!this.listening && !this.closed && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    return this.listening;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.lost();
  }

  private async connect(): Promise<void> {
    // Loaded here, not with the engine: a hub on SQLite never loads node-postgres.
    const { default: driver } = await import('pg');
    if (this.closed) return;
    const client = new driver.Client({ connectionString: this.url, application_name: `outpost-listen-${this.channel}`, connectionTimeoutMillis: 3_000 });
    this.client = client;
    client.on('notification', () => this.onChange());
    client.on('error', () => this.lost());
    client.on('end', () => this.lost());
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      if (this.client !== client || this.closed) return;
      this.retryMs = RETRY_FIRST_MS;
      this.listening = true;
      // Whatever changed before this connection listened was not heard.
      this.onChange();
    } catch {
      this.lost();
    }
  }

  /** The connection is gone (or closing): the cache is cleared and stays off until listening again. */
  private lost(): void {
    const client = this.client;
    if (!client) return;
    this.client = null;
    this.listening = false;
    this.onChange();
    client.removeAllListeners('end');
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    if (this.closed) return;
    this.timer = setTimeout(() => void this.connect(), this.retryMs);
    this.timer.unref();
    this.retryMs = Math.min(this.retryMs * 2, RETRY_LONGEST_MS);
  }
}
