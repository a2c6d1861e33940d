import { hubRequest, type HubRequest, type HubResponse } from '../platform/hubTransport.js';

export type { HubRequest, HubResponse } from '../platform/hubTransport.js';

/** How a replica reaches its hub. Tests put a cable in between that can be cut. */
export type HubFetch = (url: string, init?: HubRequest) => Promise<HubResponse>;

/** The replica's HTTP client: undici on Node, fetch in the browser (platform/hubTransport.ts). */
export const hubFetch: HubFetch = hubRequest;
