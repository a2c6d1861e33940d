import type { ApiRequest, ApiResponse, DesktopBridge, Transport } from '../../shared/bridge.js';

/**
 * The transport to an engine on this device: the desktop preload's bridge (the
 * main process attaches credentials), or the browser's engine worker (which
 * does the same). File answers (exports) arrive as text (`toBridgeResponse`).
 */
export class BridgeTransport implements Transport {
  constructor(private readonly bridge: DesktopBridge) {}

  request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
    return this.bridge.request(req) as Promise<ApiResponse<T>>;
  }
}
