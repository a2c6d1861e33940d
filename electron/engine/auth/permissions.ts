import type { Actor } from '../context.js';
import { forbidden } from '../problems.js';

/**
 * What a signed-in user's role lets them do. The checks are the domain's:
 * a service calls them itself (products.ts), or a route calls them before
 * the service where the rule is the interface's (admins write call outcomes,
 * pipelines, custom fields). Who the caller is (a token, a password) is the
 * adapter's to find out (http/auth.ts, http/supportAuth.ts); both interfaces
 * answer a refusal in their own shape (403).
 */
export function requireAdmin(actor: Actor): void {
  if (actor.role !== 'admin') throw forbidden('Only an account administrator can do this.');
}

/**
 * Activities (notes, calls, visits) are the rep's own account of what
 * happened: only the one who recorded it, or an admin, corrects or removes it.
 */
export function requireAuthorOrAdmin(actor: Actor, creatorId: number | null, what: string): void {
  if (actor.role !== 'admin' && creatorId !== actor.userId) {
    throw forbidden(`Only the person who recorded this ${what} or an administrator can change or delete it.`);
  }
}
