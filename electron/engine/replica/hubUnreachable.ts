/**
 * What a replica's request to its hub could not do because the hub is out of reach. In a module of its own
 * so the HTTP routes that answer it need not load the replica (and its HTTP client) on a hub that is none.
 */
export class HubUnreachableError extends Error {}
