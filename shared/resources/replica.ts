/** A desktop replica's own resources (Outpost extensions served at /v2/replica/… on a replica only). */

export type ReplicaState = 'offline' | 'syncing' | 'pending' | 'up_to_date';

/** `GET /v2/replica/status`. */
export interface ReplicaStatus {
  state: ReplicaState;
  /** Local changes not yet on the hub. */
  pending: number;
  /** Local changes the hub refused, kept for the rep to retry or discard. */
  issues: number;
  last_synced_at: string | null;
  last_error: string | null;
  /** Moves whenever local data changed (a local write, a pull, temporary ids replaced): open screens reload. */
  local_revision: number;
}

/** `GET /v2/replica/issues`: a local change the hub refused. */
export interface SyncIssue {
  id: number;
  method: 'POST' | 'PUT' | 'DELETE';
  resource_type: string;
  record_id: number;
  /** The fields the change sent; null for a delete. */
  data: Record<string, unknown> | null;
  /** The hub's error envelope (or one made on the device when the change could not be sent at all). */
  error: unknown;
  created_at: string;
}
