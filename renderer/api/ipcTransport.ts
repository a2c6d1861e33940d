import type { ApiRequest, ApiResponse, DesktopBridge, Transport } from '../../shared/bridge.js';

/**
 * The desktop transport: the preload's bridge; the main process attaches
 * credentials, and hands file answers (exports) over as text (`toBridgeResponse`).
 */
export class IpcTransport implements Transport {
  constructor(private readonly bridge: DesktopBridge) {}

  request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
    return this.bridge.request(req) as Promise<ApiResponse<T>>;
  }
}
