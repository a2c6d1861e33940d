import { matchRoute } from '../router/routerStore.js';
import type { MergeableType } from '../../shared/resources/merge.js';
import { DuplicatesScreen } from './DuplicatesScreen.js';
import { MergeView } from './MergeView.js';

const TYPES: Record<string, MergeableType> = { contacts: 'contact', leads: 'lead' };

/** The screen for a /duplicates path (`/duplicates`, `/duplicates/leads`, `/duplicates/contacts/3/merge/7`), or null for any other path. */
export function duplicateScreen(path: string) {
  if (matchRoute('/duplicates', path)) return <DuplicatesScreen type="contact" />;
  const list = matchRoute('/duplicates/:plural', path);
  if (list && TYPES[list.plural]) return <DuplicatesScreen key={list.plural} type={TYPES[list.plural]} />;
  const merge = matchRoute('/duplicates/:plural/:first/merge/:second', path);
  if (merge && TYPES[merge.plural] && /^-?\d+$/.test(merge.first) && /^-?\d+$/.test(merge.second)) {
    return <MergeView key={path} type={TYPES[merge.plural]} ids={[Number(merge.first), Number(merge.second)]} />;
  }
  return null;
}
