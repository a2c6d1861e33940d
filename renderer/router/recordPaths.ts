/**
 * Record pages' paths. A record made on a desktop replica has a temporary,
 * negative id until the hub has it; its page is `/contacts/local/3` rather
 * than `/contacts/-3`, so no address ever shows a negative id (nor one that
 * could pass for a hub id on another device). The page follows the record
 * to its hub id once it is synced (records/hubIds.ts).
 */

const NEGATIVE_ID = /^\/(contacts|leads|deals)\/-([1-9]\d{0,14})(\/edit)?\/?$/;
const RECORD = /^\/(?:(local)\/|(-))?([1-9]\d{0,14})(\/edit)?\/?$/;

/** The path with a temporary id written the local way (`/contacts/-3` → `/contacts/local/3`); any other path as it is. */
export function localizePath(path: string): string {
  const end = path.search(/[?#]|$/);
  const local = path.slice(0, end).replace(NEGATIVE_ID, (_, base: string, n: string, edit = '') => `/${base}/local/${n}${edit}`);
  return local + path.slice(end);
}

/**
 * The record a path under `base` names: `/contacts/12`, `/contacts/local/3`
 * (id -3; the old `/contacts/-3` too), each with `/edit` after it or not.
 * Null for any other path, so `/contacts/abc` is no contact's page.
 */
export function matchRecordPath(base: string, path: string): { id: number; edit: boolean } | null {
  if (!path.startsWith(`${base}/`)) return null;
  const match = RECORD.exec(path.slice(base.length));
  if (!match) return null;
  const [, local, minus, digits, edit] = match;
  return { id: local || minus ? -Number(digits) : Number(digits), edit: Boolean(edit) };
}
