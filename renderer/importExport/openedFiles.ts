import { create } from 'zustand';
import type { OpenFileEvent } from '../../shared/bridge.js';
import { useRouter } from '../router/routerStore.js';

export const VCARD_IMPORT_PATH = '/contacts/import-vcard';

export interface OpenedFile {
  name: string;
  text: string;
}

interface OpenedFileState {
  /** A vCard file the desktop shell opened with the app, until the import screen took it over. */
  vcard: OpenedFile | null;
  /** Counts the files opened, so each one starts the import screen afresh. */
  opened: number;
  open(file: OpenedFile): void;
  clear(): void;
}

export const useOpenedFile = create<OpenedFileState>((set, get) => ({
  vcard: null,
  opened: 0,
  open(file) {
    set({ vcard: file, opened: get().opened + 1 });
  },
  clear() {
    set({ vcard: null });
  },
}));

/** The shell's payload is checked like any input crossing the bridge. */
function isOpenFileEvent(payload: unknown): payload is OpenFileEvent {
  const event = payload as Partial<OpenFileEvent> | null;
  return typeof event === 'object' && event !== null && event.kind === 'vcard' && typeof event.name === 'string' && typeof event.text === 'string';
}

/**
 * In the desktop app: a `.vcf` opened with Outpost (double-clicked, dropped
 * on its icon, named on the command line) opens the vCard import with the
 * file's text. Returns the unsubscribe; does nothing in a browser.
 */
export function listenForOpenedFiles(): () => void {
  const bridge = window.outpost;
  if (!bridge) return () => {};
  return bridge.on('open-file', (payload) => {
    if (!isOpenFileEvent(payload)) return;
    useOpenedFile.getState().open({ name: payload.name, text: payload.text });
    useRouter.getState().navigate(VCARD_IMPORT_PATH);
  });
}
