import { createParser } from 'eventsource-parser';
import { openHubStream } from '../platform/hubTransport.js';
import { unrefTimer } from '../platform/timers.js';

/**
 * Silence on the hub's change stream after which the hub counts as lost: three
 * of its heartbeats (CHANGE_STREAM_HEARTBEAT_MS). A hub that stops or crashes
 * closes the connection, which is noticed at once; this covers a network that
 * goes quiet without a word (a cable pulled, a laptop leaving the Wi-Fi).
 */
export const HUB_SILENCE_MS = 1500;
/** Wait before asking again after the hub could not be reached. */
export const RECONNECT_MS = 1000;
/** Wait before asking again a hub whose stream is of no use here (an older hub, a proxy that buffers). */
const UNSUPPORTED_RETRY_MS = 60_000;

export interface HubEventsListener {
  /** The stream is open (the hub said `ready`): anything missed while it was closed is to be pulled now. */
  opened(): void;
  /** The hub's data changed. */
  changed(): void;
  /** The hub cannot be reached: it refused, closed without coming back, or fell silent. */
  lost(): void;
}

export interface HubEventsOptions {
  /** `<hub>/v2/sync/events`. */
  url: string;
  /** The request's headers (its bearer token); null while the replica has no credentials. */
  headers(): Record<string, string> | null;
  /** After a 401: a new access token, if it can have one. */
  renew(): Promise<void>;
  /** Where the technical reason of a lost stream goes. */
  log(line: string): void;
}

type Outcome = 'lost' | 'closed' | 'unsupported' | 'retry' | 'stopped';

/**
 * The replica's ear on its hub: holds `GET /v2/sync/events` open and tells
 * its listener when the hub's data changes (so an edit made on the hub is
 * pulled within a moment, not at the next poll) and when the hub is lost (so
 * "offline" shows at once). It reconnects by itself until stopped.
 */
export class HubEvents {
  private abort: AbortController | null = null;
  private wake: (() => void) | null = null;
  private stopped = true;

  constructor(private readonly options: HubEventsOptions, private readonly listener: HubEventsListener) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    this.abort?.abort();
    this.wake?.();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const outcome = await this.listenOnce();
      // A stream the hub closed (it is stopping or restarting) is asked for again at once: if the hub is
      // back, nothing was lost; if not, the refusal says so within milliseconds.
      if (outcome === 'closed' || outcome === 'stopped') continue;
      await this.pause(outcome === 'unsupported' ? UNSUPPORTED_RETRY_MS : RECONNECT_MS);
    }
  }

  private async listenOnce(): Promise<Outcome> {
    const headers = this.options.headers();
    if (headers === null) return 'retry';
    const abort = (this.abort = new AbortController());
    let answered = false;
    let ready = false;
    try {
      const answer = await openHubStream(this.options.url, { ...headers, Accept: 'text/event-stream' }, abort.signal, HUB_SILENCE_MS);
      answered = true;
      if (answer.status !== 200) {
        await answer.discard();
        return this.refused(answer.status);
      }
      const parser = createParser({
        onEvent: (event) => {
          if (event.event === 'ready') {
            ready = true;
            this.listener.opened();
          } else if (event.event === 'change') this.listener.changed();
        },
      });
      for await (const text of answer.text) parser.feed(text);
      // Closed after `ready`: the hub stopped. Closed before: not a stream this hub serves.
      return ready ? 'closed' : 'unsupported';
    } catch (err) {
      if (this.stopped) return 'stopped';
      this.options.log(`change stream: ${(err as Error).message}`);
      // Answered but never `ready`: something between here and the hub holds the stream back. Polling still works.
      if (answered && !ready) return 'unsupported';
      this.listener.lost();
      return 'lost';
    }
  }

  /** A status other than 200: the token needs renewing, the hub is in trouble, or it has no such stream. */
  private async refused(status: number): Promise<Outcome> {
    if (status === 401) {
      await this.options.renew();
      return 'retry';
    }
    if (status >= 500) {
      this.listener.lost();
      return 'lost';
    }
    return 'unsupported';
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      unrefTimer(timer);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
