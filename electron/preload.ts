// The only thing the renderer gets from the main process: request() and on().
// Never ipcRenderer itself (Electron security checklist).
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_CHANNELS, type ApiRequest, type BridgeEvent, type DesktopBridge } from '../shared/bridge.js';

const bridge: DesktopBridge = {
  request: (request: ApiRequest) => ipcRenderer.invoke(IPC_CHANNELS.request, request),
  on(event: BridgeEvent, listener: (payload: unknown) => void) {
    const handler = (_e: IpcRendererEvent, message: { event: BridgeEvent; payload: unknown }) => {
      if (message?.event === event) listener(message.payload);
    };
    ipcRenderer.on(IPC_CHANNELS.event, handler);
    return () => ipcRenderer.removeListener(IPC_CHANNELS.event, handler);
  },
};

contextBridge.exposeInMainWorld('outpost', bridge);
