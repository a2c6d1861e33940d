import type { User } from '../../../shared/resources/user.js';

/** The role as people call it: the API's `admin` / `user`. */
export const roleLabel = (role: User['role']) => (role === 'admin' ? 'Administrator' : 'Agent');

/** Deactivated, invited (no password set yet) or active. */
export function statusLabel(user: User): 'Active' | 'Deactivated' | 'Invited' {
  if (user.status === 'inactive') return 'Deactivated';
  return user.invited && !user.confirmed ? 'Invited' : 'Active';
}

/** A link's expiry as a date and time in the reader's own words ("1 Dec 2026, 10:00"). */
export const expiryText = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The form's labels by API field name, so field errors read in the form's words. */
export const USER_LABELS = { name: 'Name', email: 'Email', role: 'Role', password: 'Password', status: 'Status' };
