import { MENU_SHORTCUTS, type DesktopCommand } from '../../shared/bridge.js';
import { useRouter } from '../router/routerStore.js';
import { matchRecordPath } from '../router/recordPaths.js';
import { useReplica } from '../sync/replicaStore.js';
import { useCommands } from './commandStore.js';

/** macOS names modifier keys by symbol and uses ⌘ where others use Ctrl. */
export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent);

/** A key combination: the letter's `KeyboardEvent.code` (so ⌥⇧C on a Mac, which types "Ç", still counts). */
export interface Shortcut {
  code: string;
  /** Ctrl, or ⌘ on a Mac. */
  primary?: boolean;
  alt?: boolean;
  shift?: boolean;
}

export interface Command {
  id: string;
  title: string;
  /** More words it is found by ("add", "create"). */
  keywords: string;
  shortcut?: Shortcut;
  /** Whether it applies now (Sync now only on a desktop replica). */
  available(): boolean;
  run(): void;
}

const navigate = (path: string) => useRouter.getState().navigate(path);
const always = () => true;

/**
 * Everything the palette can run, the keyboard shortcuts, and the desktop
 * shell's menu commands (bridge 'command' events) — one list, so each is
 * defined once. Alt+Shift+letter for the creates: Ctrl/⌘+letter and
 * Alt+letter belong to browsers and menus, Alt+Shift+letter to neither.
 */
export const COMMANDS: readonly Command[] = [
  { id: 'new-contact', title: 'New contact', keywords: 'add create person organization', shortcut: { code: 'KeyC', alt: true, shift: true }, available: always, run: () => navigate('/contacts/new') },
  { id: 'new-task', title: 'New task', keywords: 'add create todo reminder', shortcut: { code: 'KeyT', alt: true, shift: true }, available: always, run: () => useCommands.getState().openQuickCreate('task') },
  { id: 'new-note', title: 'New note', keywords: 'add create comment', shortcut: { code: 'KeyN', alt: true, shift: true }, available: always, run: () => useCommands.getState().openQuickCreate('note') },
  { id: 'new-lead', title: 'New lead', keywords: 'add create prospect', available: always, run: () => navigate('/leads/new') },
  { id: 'new-deal', title: 'New deal', keywords: 'add create opportunity', available: always, run: () => navigate('/deals/new') },
  {
    id: 'sync-now', title: 'Sync now', keywords: 'hub refresh upload download', available: () => useReplica.getState().kind === 'replica',
    run: () => void useReplica.getState().syncNow(),
  },
];

/** Opens the palette: listed for the shortcut's sake, not offered inside the palette itself. */
export const PALETTE_SHORTCUT: Shortcut = { code: 'KeyK', primary: true };

/** A bridge 'command' event (a desktop menu item) run as if chosen here; unknown names are ignored. */
export function runDesktopCommand(name: DesktopCommand | string): void {
  if (name === 'command-palette') return useCommands.getState().openPalette();
  const command = COMMANDS.find((c) => c.id === name);
  if (command?.available()) command.run();
}

/** Commands whose title or keywords hold every typed word as the beginning of a word; all of them for no text. */
export function matchingCommands(text: string): Command[] {
  const typed = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return COMMANDS.filter((command) => {
    if (!command.available()) return false;
    const words = `${command.title} ${command.keywords}`.toLowerCase().split(/\s+/);
    return typed.every((t) => words.some((w) => w.startsWith(t)));
  });
}

export function matchesShortcut(event: KeyboardEvent, shortcut: Shortcut): boolean {
  const primary = isMac ? event.metaKey : event.ctrlKey;
  const other = isMac ? event.ctrlKey : event.metaKey;
  return event.code === shortcut.code && primary === Boolean(shortcut.primary) && !other
    && event.altKey === Boolean(shortcut.alt) && event.shiftKey === Boolean(shortcut.shift);
}

/**
 * The shortcut the palette lists for a command: in the desktop app the menu's
 * (Ctrl/⌘+N, which the menu catches before the page), in a browser the page's own.
 */
export function listedShortcut(command: Command): Shortcut | undefined {
  const menu = window.outpost && (MENU_SHORTCUTS as Partial<Record<string, { key: string; shift?: boolean }>>)[command.id];
  return menu ? { code: `Key${menu.key}`, primary: true, shift: menu.shift } : command.shortcut;
}

/** How a shortcut is written for this platform: "Alt+Shift+T", "⌥⇧T"; "Ctrl+K", "⌘K". */
export function shortcutLabel(shortcut: Shortcut): string {
  const key = shortcut.code.replace(/^Key/, '');
  const parts = isMac
    ? [shortcut.alt && '⌥', shortcut.shift && '⇧', shortcut.primary && '⌘', key]
    : [shortcut.primary && 'Ctrl', shortcut.alt && 'Alt', shortcut.shift && 'Shift', key];
  return parts.filter(Boolean).join(isMac ? '' : '+');
}

/** The record whose page is showing (`/contacts/12`, `/deals/local/3`), to attach a new task or note to. */
export function currentRecord(path: string): { type: 'contact' | 'lead' | 'deal'; id: number } | null {
  for (const type of ['contact', 'lead', 'deal'] as const) {
    const page = matchRecordPath(`/${type}s`, path);
    if (page && !page.edit) return { type, id: page.id };
  }
  return null;
}

/**
 * The app path of a bridge 'open-path' event (a deep link), or null when it
 * is not one: it must start with a single "/" (never another origin's
 * `//host`), be at most 2000 characters, without spaces or backslashes.
 */
export function appPath(payload: unknown): string | null {
  const path = (payload as { path?: unknown } | null)?.path;
  if (typeof path !== 'string' || path.length > 2000) return null;
  return /^\/(?![/\\])[^\s\\]*$/.test(path) ? path : null;
}
