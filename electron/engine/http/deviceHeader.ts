import type { FastifyRequest } from 'fastify';

/** The spec's device header, and the name the real service's clients send (Ruby sends `X-Basecrm-Device-Uuid`). */
export const DEVICE_HEADERS = ['x-service-device-uuid', 'x-basecrm-device-uuid'] as const;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The device a write names, lower-cased. A write need not name one, and one
 * that is not a UUID is no device: both give undefined, never an error (the
 * sync routes, which require a device, refuse a bad one themselves).
 */
export function writingDevice(request: FastifyRequest): string | undefined {
  const header = DEVICE_HEADERS.map((name) => request.headers[name]).find((value) => typeof value === 'string');
  if (typeof header !== 'string' || !UUID.test(header.trim())) return undefined;
  return header.trim().toLowerCase();
}
