// Events the desktop shell sends the window (menu commands, deep links, opened
// files: see BridgeEvent in shared/bridge.ts), and when it may send them.
// The preload does not keep events nobody listens to, and the renderer's
// listeners exist only once the signed-in app shell has mounted; a file
// double-clicked to launch the app would be lost if sent on page load. So
// events wait until the page shows it is past the session check: its first
// bridge request for anything but who is signed in comes from the screens'
// effects, which run in the same commit as the shell's listeners.
// Pure Node code (no 'electron' import) so it is tested under Vitest.
import type { CommandEvent, DesktopCommand, OpenFileEvent, OpenPathEvent } from '../../shared/bridge.js';

export type ShellMessage =
  | { event: 'command'; payload: CommandEvent }
  | { event: 'open-path'; payload: OpenPathEvent }
  | { event: 'open-file'; payload: OpenFileEvent };

export const command = (name: DesktopCommand): ShellMessage => ({ event: 'command', payload: { name } });
export const openPath = (path: string): ShellMessage => ({ event: 'open-path', payload: { path } });

/** What the renderer asks before it knows whether anyone is signed in (renderer/session/sessionStore.ts). */
const SESSION_PATHS = new Set(['/v2/users/self', '/v2/accounts/self']);

/** Messages kept for a page that is not listening yet; more than this and the oldest go (a burst of launches). */
const MAX_PENDING = 10;

export class ShellEventQueue {
  private listening = false;
  private pending: ShellMessage[] = [];

  constructor(private readonly deliver: (message: ShellMessage) => void) {}

  /** The window loaded a new page (start, reload): its listeners are gone until its app shell mounts again. */
  pageLoaded(): void {
    this.listening = false;
  }

  /** A bridge request from the page: once it asks for more than the session, the shell's listeners are there. */
  requestSeen(request: unknown): void {
    if (this.listening) return;
    const path = (request as { path?: unknown } | null)?.path;
    if (typeof path !== 'string' || SESSION_PATHS.has(path)) return;
    this.listening = true;
    const waiting = this.pending;
    this.pending = [];
    for (const message of waiting) this.deliver(message);
  }

  /**
   * Sends now when the page listens, otherwise once it does. A menu command
   * is dropped instead: it is what someone asks for right now (the page is
   * still loading, or signed out), and done later it would only surprise.
   */
  send(message: ShellMessage): void {
    if (this.listening) {
      this.deliver(message);
      return;
    }
    if (message.event === 'command') return;
    this.pending.push(message);
    if (this.pending.length > MAX_PENDING) this.pending.shift();
  }

  get waiting(): readonly ShellMessage[] {
    return this.pending;
  }
}
