// The window's size, position and maximized state, kept in a small JSON file
// in the user-data folder between runs. A saved position is used only while
// the window would still be reachable: a monitor unplugged or rearranged since
// would otherwise open it off screen. Pure Node code (no 'electron' import)
// so it is tested under Vitest; main.ts passes the displays' work areas.
import { renameSync, readFileSync, writeFileSync } from 'node:fs';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  /** The normal (not maximized) bounds, so un-maximizing after a restart goes back to them. */
  bounds: Rect;
  maximized: boolean;
}

/** What the window is created with: a position only when the saved one is still visible. */
export interface WindowPlacement {
  width: number;
  height: number;
  x?: number;
  y?: number;
  maximized: boolean;
}

export const WINDOW_STATE_FILE = 'window-state.json';
export const DEFAULT_SIZE = { width: 1200, height: 800 } as const;
export const MIN_SIZE = { width: 720, height: 480 } as const;

/** The strip at the top of a window that must lie on a display so it can be grabbed and moved. */
const TITLE_BAR_HEIGHT = 32;
const MIN_GRAB_WIDTH = 100;

/** The saved state, or null when the file is missing, unreadable or not what we wrote. */
export function parseWindowState(text: string): WindowState | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const state = value as Partial<WindowState> | null;
  const bounds = state?.bounds as Partial<Rect> | undefined;
  if (!bounds || typeof state?.maximized !== 'boolean') return null;
  const numbers = [bounds.x, bounds.y, bounds.width, bounds.height];
  if (!numbers.every((n) => Number.isSafeInteger(n))) return null;
  if (bounds.width! <= 0 || bounds.height! <= 0) return null;
  return { bounds: { x: bounds.x!, y: bounds.y!, width: bounds.width!, height: bounds.height! }, maximized: state.maximized };
}

export function loadWindowState(file: string): WindowState | null {
  try {
    return parseWindowState(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Written to a temporary file first, so a crash mid-write never leaves half a file. */
export function saveWindowState(file: string, state: WindowState): void {
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, JSON.stringify(state));
  renameSync(temporary, file);
}

/** What to remember of a window as it closes (full screen is remembered as maximized, not re-entered). */
export function captureWindowState(window: { getNormalBounds(): Rect; isMaximized(): boolean; isFullScreen(): boolean }): WindowState {
  const { x, y, width, height } = window.getNormalBounds();
  return { bounds: { x, y, width, height }, maximized: window.isMaximized() || window.isFullScreen() };
}

/** Whether the window's title bar lies on `area` enough to be grabbed (all of its height, MIN_GRAB_WIDTH of its width). */
function grabbableOn(bounds: Rect, area: Rect): boolean {
  const left = Math.max(bounds.x, area.x);
  const right = Math.min(bounds.x + bounds.width, area.x + area.width);
  const fitsVertically = bounds.y >= area.y && bounds.y + TITLE_BAR_HEIGHT <= area.y + area.height;
  return fitsVertically && right - left >= Math.min(MIN_GRAB_WIDTH, bounds.width);
}

/**
 * Where to open the window, given the saved state and the work areas of the
 * displays now attached (the first one the primary). The saved size is kept
 * within the display it is shown on (and no smaller than MIN_SIZE); the
 * position only if the title bar is still on a display, otherwise the window
 * opens centred (no x/y) on the primary display. Maximized state is kept.
 */
export function windowPlacement(saved: WindowState | null, workAreas: readonly Rect[]): WindowPlacement {
  if (!saved) return { ...DEFAULT_SIZE, maximized: false };
  const home = workAreas.find((area) => grabbableOn(saved.bounds, area));
  const fitTo = home ?? workAreas[0];
  const clamp = (value: number, min: number, max: number | undefined) => Math.max(min, max === undefined ? value : Math.min(value, max));
  const width = clamp(saved.bounds.width, MIN_SIZE.width, fitTo?.width);
  const height = clamp(saved.bounds.height, MIN_SIZE.height, fitTo?.height);
  if (!home) return { width, height, maximized: saved.maximized };
  return { width, height, x: saved.bounds.x, y: saved.bounds.y, maximized: saved.maximized };
}
