import { SCOPES, type Scope } from '../../../shared/oauth.js';

/** Parses a space-delimited scope string; returns null if it names an unknown scope. */
export function parseScope(text: string): Scope[] | null {
  const names = text.split(/[\s+]+/).filter(Boolean);
  if (names.length === 0) return null;
  if (!names.every((n): n is Scope => (SCOPES as readonly string[]).includes(n))) return null;
  return [...new Set(names)].sort((a, b) => SCOPES.indexOf(a) - SCOPES.indexOf(b));
}

/**
 * Which scope an operation needs (the spec names the scopes but not what each
 * permits; this follows the real service): reads need `read`, changes need
 * `write`, the caller's own profile `profile` or `read`, sync needs `sync`.
 */
export function requiredScope(method: string, path: string): Scope | 'profile-or-read' {
  if (path.startsWith('/v2/sync')) return 'sync';
  if (path === '/v2/users/self' || path === '/v2/accounts/self') return 'profile-or-read';
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}
