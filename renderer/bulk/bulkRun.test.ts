import { describe, expect, it } from 'vitest';
import type { ApiErrorItem } from '../../shared/errors.js';

// client.ts picks its transport from `window` when loaded: a bare one makes it the browser's (never used here).
(globalThis as { window?: object }).window ??= {};
const { chunksOf, failureReason, BULK_CHUNK } = await import('./bulkRun.js');
const { countOf, tagNames, BULK_KINDS } = await import('./bulkKinds.js');

const item = (resource: string, field: string, code: ApiErrorItem['error']['code'], message: string): ApiErrorItem =>
  ({ error: { resource, field, code, message, details: message }, meta: { type: 'error', links: { more_info: '' } } });

describe('bulk runs', () => {
  it('sends ids in calls of BULK_CHUNK, the last one shorter', () => {
    const ids = Array.from({ length: 1203 }, (_, i) => i + 1);
    expect(chunksOf(ids).map((c) => c.length)).toEqual([BULK_CHUNK, BULK_CHUNK, 203]);
    expect(chunksOf(ids).flat()).toEqual(ids);
    expect(chunksOf([])).toEqual([]);
  });

  it("words a refused record as a form words the same refusal, not in the API's names", () => {
    expect(failureReason([item('contact', '/last_name', 'blank', "last_name can't be blank for an individual.")])).toBe('Enter the person’s last name.');
    expect(failureReason([item('contact', '/id', 'not_found', 'The contact with id 5 was not found.')])).toBe('The contact with id 5 was not found.');
    expect(failureReason([item('lead', '/owner_id', 'incorrect_value', 'owner_id must be an active user.')])).not.toMatch(/owner_id/);
  });

  it('counts and reads tags as a rep writes them', () => {
    expect(countOf(BULK_KINDS.contacts, 1)).toBe('1 contact');
    expect(countOf(BULK_KINDS.tasks, 4200)).toBe(`${(4200).toLocaleString()} tasks`);
    expect(tagNames(' vip, north ,, vip ')).toEqual(['vip', 'north']);
  });
});
