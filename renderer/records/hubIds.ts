import { api } from '../api/client.js';
import type { RecordType } from './records.js';

/**
 * The hub id of a record made on this device (a temporary, negative id),
 * once a sync took it to the hub and the device's copy took that id, or of a
 * record recreated on the hub under a new id; null while none is known
 * (`GET /v2/replica/ids/:type/:temp_id`; a plain hub has none).
 */
export function hubIdOf(type: RecordType, tempId: number): Promise<number | null> {
  return api.get<{ hub_id: number }>(`/v2/replica/ids/${type}/${tempId}`).then((found) => found.hub_id, () => null);
}
