import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BridgeEvent } from '../../shared/bridge.js';

// The desktop shell's 'open-file' event (a .vcf opened with the app) opens the
// vCard import with the file's text. A stand-in window with a bridge, so the
// renderer module runs under Node.

type Listener = (payload: unknown) => void;
const listeners = new Map<BridgeEvent, Set<Listener>>();
const bridge = {
  request: async () => ({ status: 500, body: null }),
  on(event: BridgeEvent, listener: Listener) {
    const set = listeners.get(event) ?? new Set<Listener>();
    set.add(listener);
    listeners.set(event, set);
    return () => void set.delete(listener);
  },
};
const emit = (event: BridgeEvent, payload: unknown) => listeners.get(event)?.forEach((listener) => listener(payload));
const location = { pathname: '/contacts', search: '' };
const moveTo = (_state: unknown, _title: string, url: string) => void (location.pathname = url);

let opened: typeof import('./openedFiles.js');
let router: typeof import('../router/routerStore.js');
beforeAll(async () => {
  vi.stubGlobal('window', { location, history: { pushState: moveTo, replaceState: moveTo }, addEventListener() {}, outpost: bridge });
  opened = await import('./openedFiles.js');
  router = await import('../router/routerStore.js');
});
afterAll(() => vi.unstubAllGlobals());

describe("the desktop shell's open-file event", () => {
  it('opens the vCard import with the file, each file afresh', () => {
    const stop = opened.listenForOpenedFiles();
    try {
      emit('open-file', { kind: 'vcard', name: 'team.vcf', text: 'BEGIN:VCARD\r\nEND:VCARD\r\n' });
      expect(opened.useOpenedFile.getState()).toMatchObject({ vcard: { name: 'team.vcf', text: 'BEGIN:VCARD\r\nEND:VCARD\r\n' }, opened: 1 });
      expect(router.useRouter.getState().path).toBe(opened.VCARD_IMPORT_PATH);

      // The same file again, with the screen already open, still starts it afresh.
      emit('open-file', { kind: 'vcard', name: 'team.vcf', text: 'BEGIN:VCARD\r\nEND:VCARD\r\n' });
      expect(opened.useOpenedFile.getState().opened).toBe(2);
      opened.useOpenedFile.getState().clear();
      expect(opened.useOpenedFile.getState()).toMatchObject({ vcard: null, opened: 2 });
    } finally {
      stop();
    }
  });

  it('ignores payloads that are not a vCard file with a name and text', () => {
    router.useRouter.getState().navigate('/tasks');
    const stop = opened.listenForOpenedFiles();
    try {
      for (const payload of [null, 'team.vcf', { kind: 'csv', name: 'a.csv', text: 'a,b' }, { kind: 'vcard', name: 'a.vcf' }, { kind: 'vcard', name: 7, text: '' }]) {
        emit('open-file', payload);
      }
      expect(opened.useOpenedFile.getState().vcard).toBeNull();
      expect(router.useRouter.getState().path).toBe('/tasks');
    } finally {
      stop();
    }
  });

  it('stops listening when unsubscribed', () => {
    opened.listenForOpenedFiles()();
    emit('open-file', { kind: 'vcard', name: 'late.vcf', text: 'BEGIN:VCARD\r\nEND:VCARD\r\n' });
    expect(opened.useOpenedFile.getState().vcard).toBeNull();
    expect(listeners.get('open-file')?.size).toBe(0);
  });
});
