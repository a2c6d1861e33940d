// The only thing the renderer gets from the main process: request() and on().
// Never ipcRenderer itself (Electron security checklist). The preload runs
// sandboxed, so scripts/build-electron.mjs bundles it into one CommonJS file
// with only 'electron' external.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_CHANNELS, type ApiRequest, type ApiResponse, type BridgeEvent, type DesktopBridge } from '../shared/bridge.js';

const bridge: DesktopBridge = {
  request: (request: ApiRequest): Promise<ApiResponse> => ipcRenderer.invoke(IPC_CHANNELS.request, request),
  on(event: BridgeEvent, listener: (payload: unknown) => void) {
    // The IPC event object (with its `sender`) never reaches the page: only the payload does.
    const handler = (_event: IpcRendererEvent, message: { event?: unknown; payload?: unknown } | undefined) => {
      if (message?.event === event) listener(message.payload);
    };
    ipcRenderer.on(IPC_CHANNELS.event, handler);
    return () => {
      ipcRenderer.removeListener(IPC_CHANNELS.event, handler);
    };
  },
};

contextBridge.exposeInMainWorld('outpost', bridge);
