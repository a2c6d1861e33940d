/** The records activities hang on (a task's, note's, call's or visit's `resource_type` and `resource_id`). */
export type RecordType = 'contact' | 'lead' | 'deal';

export interface RecordRef {
  type: RecordType;
  id: number;
}

/** `contact:12`: one record's key in maps of names. */
export const recordKey = (ref: RecordRef) => `${ref.type}:${ref.id}`;

/** The record's page in the UI (`/contacts/12`). */
export const recordPath = (ref: RecordRef) => `/${ref.type}s/${ref.id}`;

/** The record an activity is on, or null for one on none (a floating task). */
export function recordOf(item: { resource_type: RecordType | null; resource_id: number | null }): RecordRef | null {
  return item.resource_type && item.resource_id !== null ? { type: item.resource_type, id: item.resource_id } : null;
}
