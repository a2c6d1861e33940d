import type { FastifyRequest } from 'fastify';
import { FieldErrors } from '../problems.js';
import { isoSeconds, type Clock } from '../clock.js';
import type { Actor } from '../context.js';
import type { EditOrigin } from '../sync/mergedUpdate.js';
import { writingDevice } from './deviceHeader.js';

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The Outpost extensions a write may carry in its body's `meta`
 * (docs/sync.md "Edits made offline"), beside `data`:
 * - `base` (updates): the values the changed fields had when the editor
 *   started, as the API serves them; the hub then takes each field only where
 *   it still holds that value, and answers the others in `meta.conflicts`.
 * - `written_at` (creates and updates): when a device's rep made the change,
 *   an ISO 8601 date-time. Taken only from a device syncing (a token with the
 *   `sync` scope and an X-Service-Device-UUID header); a time ahead of the
 *   hub's clock counts as now. Other `meta` keys (`type`) are ignored, as the
 *   real service does.
 */
export function editOriginOf(request: FastifyRequest, actor: Actor, clock: Clock, resource: string): EditOrigin {
  const meta = (request.body as { meta?: unknown } | null)?.meta;
  if (meta === undefined || meta === null) return {};
  const errors = new FieldErrors(resource);
  if (!isObject(meta)) {
    errors.add('/meta', 'invalid_type', '"meta" must be an object.');
    errors.throwIfAny();
  }
  const origin: EditOrigin = {};
  const { base, written_at: writtenAt } = meta as { base?: unknown; written_at?: unknown };
  if (base !== undefined && base !== null) {
    if (isObject(base)) origin.base = base;
    else errors.add('/meta/base', 'invalid_type', 'meta.base must be an object: the values the changed fields had before the change.');
  }
  if (writtenAt !== undefined && writtenAt !== null) {
    const time = typeof writtenAt === 'string' && ISO_DATE_TIME.test(writtenAt) ? new Date(writtenAt) : null;
    if (!time || Number.isNaN(time.getTime())) errors.add('/meta/written_at', 'invalid_type', 'meta.written_at must be an ISO 8601 date-time (2026-11-25T18:03:40Z).');
    else if (!fromSyncingDevice(request, actor)) errors.add('/meta/written_at', 'incorrect_value', 'meta.written_at is taken only from a device syncing with this hub: a token with the sync scope and an X-Service-Device-UUID header.');
    else origin.writtenAt = isoSeconds(new Date(Math.min(time.getTime(), clock.now().getTime())));
  }
  errors.throwIfAny();
  return origin;
}

function fromSyncingDevice(request: FastifyRequest, actor: Actor): boolean {
  return actor.scopes.has('sync') && writingDevice(request) !== undefined;
}
