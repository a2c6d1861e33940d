import { openEngine, type Engine } from '../engine/engine.js';
import { Replica } from '../engine/replica/replica.js';
import { keptCredentials } from '../engine/replica/upstream.js';

/**
 * What the browser's engine worker will load: the engine opened as a replica
 * of the hub that served the page, syncing with it as `serve --upstream` does.
 * Bundled for the browser (scripts/platformVariants.mjs swaps each
 * platform/<name>.ts for its .web.ts), it must reach nothing of Node's:
 * test/engine/browserBundle.test.ts bundles this file and fails on anything
 * that would not load in a worker.
 */
export interface LocalReplica {
  engine: Engine;
  replica: Replica;
  /** Stops syncing (waiting for a sync under way), then closes the database. */
  close(): Promise<void>;
}

export interface LocalReplicaOptions {
  /** Where the replica's database lives (in the browser: a folder of names in the Origin Private File System). */
  dataDir: string;
  /** The hub's base URL (the page's origin). */
  hubUrl: string;
  log?: (line: string) => void;
  /** The hub ended the session (see ReplicaOptions.onSignedOut). */
  onSignedOut?: () => void;
}

/** Opens the local engine as a replica of `hubUrl`, with the hub tokens it kept from its last sign-in. */
export function openLocalReplica(options: LocalReplicaOptions): LocalReplica {
  const engine = openEngine({ dataDir: options.dataDir, replica: true });
  const replica = new Replica(engine, { hubUrl: options.hubUrl, credentials: keptCredentials(engine.db, options.hubUrl), log: options.log, onSignedOut: options.onSignedOut });
  return {
    engine,
    replica,
    close: async () => {
      await replica.stop();
      engine.close();
    },
  };
}
