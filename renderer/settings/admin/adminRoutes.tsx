import type { ReactElement } from 'react';
import { matchRoute } from '../../router/routerStore.js';
import { FieldsScreen } from './FieldsScreen.js';
import { ListsScreen } from './ListsScreen.js';
import { PipelinesScreen } from './PipelinesScreen.js';

/** The administration screens under Settings; null for any other path. */
export function adminScreen(path: string): ReactElement | null {
  if (matchRoute('/settings/pipelines', path)) return <PipelinesScreen />;
  if (matchRoute('/settings/lists', path)) return <ListsScreen />;
  if (matchRoute('/settings/fields', path)) return <FieldsScreen />;
  return null;
}
