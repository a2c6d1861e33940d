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
 * permits; this follows the real service): the sync protocol needs `sync`;
 * otherwise reads need `read` (reading one's own user or account, `profile`
 * or `read`), and every change needs `write`, one's own account and profile
 * included: `profile` only lets a client see who signed in.
 */
export function requiredScope(method: string, path: string): Scope | 'profile-or-read' {
  if (path.startsWith('/v2/sync')) return 'sync';
  if (method !== 'GET' && method !== 'HEAD') return 'write';
  return path === '/v2/users/self' || path === '/v2/accounts/self' ? 'profile-or-read' : 'read';
}
