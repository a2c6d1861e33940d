/** A desktop replica's own resources (Outpost extensions served at /v2/replica/… on a replica only). */

export type ReplicaState = 'offline' | 'syncing' | 'pending' | 'up_to_date';

/** `GET /v2/replica/status`. */
export interface ReplicaStatus {
  state: ReplicaState;
  /** Local changes not yet on the hub. */
  pending: number;
  /** Local changes the hub refused, kept for the rep to retry or discard. */
  issues: number;
  /** Fields changed both here and on the hub, waiting for the rep to choose (`GET /v2/replica/conflicts`). */
  conflicts: number;
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
  /** True when the change was to a record the hub no longer has (deleted there): `record` is what would be lost. */
  deleted_on_hub: boolean;
  /** The record as this device still holds it (for a change to a record deleted on the hub); null otherwise. */
  record: Record<string, unknown> | null;
}

/**
 * `GET /v2/replica/conflicts`: a field changed both on this device and on the
 * hub since the device last saw it. The hub kept its value (the
 * record shows it); the rep's is kept here until the rep chooses.
 */
export interface SyncConflict {
  id: number;
  resource_type: string;
  record_id: number;
  /** The field: `email`, or one key of an object field (`address.city`, `custom_fields.Size`). */
  field: string;
  /** The rep's value, as sent, and when the rep made the change. */
  yours: { value: unknown; changed_at: string };
  /** The hub's value, who changed it (a user id; null when not known) and when. */
  theirs: { value: unknown; changed_by_id: number | null; changed_at: string | null };
  created_at: string;
}
