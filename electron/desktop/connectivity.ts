// Offline detection for a replica: when the network comes back (the OS says
// it is online again, or the computer wakes from sleep) the replica is asked
// to sync at once, instead of at its next round, so changes made offline
// reach the hub as soon as they can. main.ts polls Electron's net.isOnline()
// and forwards powerMonitor's 'resume'. Pure Node code (no 'electron'
// import) so it is tested under Vitest.

/** How often the network state is looked at: a cheap call, and a reconnect is noticed within this. */
export const CONNECTIVITY_POLL_MS = 2_000;

export interface ConnectivityOptions {
  /** Whether the OS has a network connection (Electron's `net.isOnline()`). */
  isOnline(): boolean;
  /** Called when it is worth syncing now: back online, or awake and online. */
  onReconnect(): void;
}

export class ConnectivityWatcher {
  private online: boolean;

  constructor(private readonly options: ConnectivityOptions) {
    this.online = options.isOnline();
  }

  /** Whether the OS reported a connection at the last look. */
  get isOnline(): boolean {
    return this.online;
  }

  /** One look at the network: offline → online asks for a sync. */
  check(): void {
    const now = this.options.isOnline();
    const cameBack = !this.online && now;
    this.online = now;
    if (cameBack) this.options.onReconnect();
  }

  /**
   * The computer woke up: its connection may have changed while asleep
   * (another network, a hub that timed the device out), so sync if online,
   * whatever the state before.
   */
  resumed(): void {
    this.online = this.options.isOnline();
    if (this.online) this.options.onReconnect();
  }

  /** Polls every `intervalMs` until the returned function is called. */
  watch(intervalMs = CONNECTIVITY_POLL_MS): () => void {
    const timer = setInterval(() => this.check(), intervalMs);
    timer.unref?.();
    return () => clearInterval(timer);
  }
}
