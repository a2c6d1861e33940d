import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureWindowState, DEFAULT_SIZE, loadWindowState, parseWindowState, saveWindowState, windowPlacement, type WindowState } from '../../electron/desktop/windowState.js';

const LAPTOP = { x: 0, y: 0, width: 1440, height: 875 };
const MONITOR_RIGHT = { x: 1440, y: 0, width: 2560, height: 1400 };
const state = (x: number, y: number, width = 1000, height = 700, maximized = false): WindowState => ({ bounds: { x, y, width, height }, maximized });

describe('window placement', () => {
  it('opens at the default size, centred, the first time', () => {
    expect(windowPlacement(null, [LAPTOP])).toEqual({ ...DEFAULT_SIZE, maximized: false });
  });

  it('restores size, position and maximized state while the window is still on a display', () => {
    expect(windowPlacement(state(100, 80, 1000, 700, true), [LAPTOP])).toEqual({ x: 100, y: 80, width: 1000, height: 700, maximized: true });
    expect(windowPlacement(state(2000, 100, 1800, 1000), [LAPTOP, MONITOR_RIGHT])).toEqual({ x: 2000, y: 100, width: 1800, height: 1000, maximized: false });
    // Partly off the right edge is fine while the title bar can still be grabbed.
    expect(windowPlacement(state(1300, 100), [LAPTOP])).toMatchObject({ x: 1300, y: 100 });
  });

  it('opens centred on the primary display when the saved place is gone (monitor unplugged, title bar off screen)', () => {
    expect(windowPlacement(state(2000, 100, 1800, 1000), [LAPTOP])).toEqual({ width: 1440, height: 875, maximized: false });
    expect(windowPlacement(state(100, -200), [LAPTOP])).toEqual({ width: 1000, height: 700, maximized: false });
    expect(windowPlacement(state(1400, 100), [LAPTOP])).toEqual({ width: 1000, height: 700, maximized: false }); // only 40 px left to grab
    expect(windowPlacement(state(100, 860), [LAPTOP])).toEqual({ width: 1000, height: 700, maximized: false }); // title bar below the bottom
  });

  it('never opens smaller than the minimum size', () => {
    expect(windowPlacement(state(10, 10, 200, 100), [LAPTOP])).toEqual({ x: 10, y: 10, width: 720, height: 480, maximized: false });
  });
});

describe('the window state file', () => {
  it('is written whole and read back; anything else in it is ignored', () => {
    const dir = mkdtempSync(join(tmpdir(), 'outpost-window-'));
    try {
      const file = join(dir, 'window-state.json');
      expect(loadWindowState(file)).toBeNull();
      saveWindowState(file, state(5, 6, 800, 600, true));
      expect(loadWindowState(file)).toEqual(state(5, 6, 800, 600, true));
      expect(readdirSync(dir)).toEqual(['window-state.json']); // no temporary file left behind
      writeFileSync(file, '{"bounds":{"x":1');
      expect(loadWindowState(file)).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(parseWindowState('{"bounds":{"x":1,"y":2,"width":0,"height":5},"maximized":false}')).toBeNull();
    expect(parseWindowState('{"bounds":{"x":1.5,"y":2,"width":9,"height":5},"maximized":false}')).toBeNull();
    expect(parseWindowState('{"bounds":{"x":1,"y":2,"width":9,"height":5}}')).toBeNull();
    expect(parseWindowState('null')).toBeNull();
  });

  it('keeps the normal bounds of a maximized or full-screen window', () => {
    const window = (maximized: boolean, fullScreen: boolean) => ({ getNormalBounds: () => ({ x: 1, y: 2, width: 900, height: 650 }), isMaximized: () => maximized, isFullScreen: () => fullScreen });
    expect(captureWindowState(window(true, false))).toEqual(state(1, 2, 900, 650, true));
    expect(captureWindowState(window(false, true))).toEqual(state(1, 2, 900, 650, true));
    expect(captureWindowState(window(false, false))).toEqual(state(1, 2, 900, 650, false));
  });
});
