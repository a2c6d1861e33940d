import { create } from 'zustand';

export type QuickCreateKind = 'task' | 'note';

interface CommandState {
  paletteOpen: boolean;
  /** The quick-create dialog showing, if any. */
  quickCreate: QuickCreateKind | null;
  /** Bumped when a command created something, so the screen showing loads again (App keys the screen by it). */
  dataVersion: number;
  /** A short confirmation for everyone, screen readers included ("Task added"); cleared after a few seconds. */
  notice: string | null;
  openPalette(): void;
  closePalette(): void;
  openQuickCreate(kind: QuickCreateKind): void;
  closeQuickCreate(): void;
  created(notice: string): void;
  clearNotice(): void;
}

/**
 * What the command layer shows. Opening is idempotent (never a toggle):
 * the desktop menu's accelerator and the page's own shortcut may both fire
 * for one key press, and must not cancel each other out.
 */
export const useCommands = create<CommandState>((set) => ({
  paletteOpen: false,
  quickCreate: null,
  dataVersion: 0,
  notice: null,
  openPalette: () => set({ paletteOpen: true, quickCreate: null }),
  closePalette: () => set({ paletteOpen: false }),
  openQuickCreate: (kind) => set({ quickCreate: kind, paletteOpen: false }),
  closeQuickCreate: () => set({ quickCreate: null }),
  created: (notice) => set((s) => ({ quickCreate: null, dataVersion: s.dataVersion + 1, notice })),
  clearNotice: () => set({ notice: null }),
}));
