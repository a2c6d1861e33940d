import type { ReactElement } from 'react';
import { matchRoute } from '../router/routerStore.js';
import { ObjectAdminPage } from './ObjectAdminPage.js';
import { ObjectsAdminScreen } from './ObjectsAdminScreen.js';
import { ObjectsIndexScreen } from './ObjectsIndexScreen.js';
import { RecordFormScreen } from './RecordFormScreen.js';
import { RecordsScreen } from './RecordsScreen.js';
import { ADMIN_PATH, OBJECTS_PATH } from './paths.js';
import './customObjects.css';

/**
 * The screen for a custom-objects path, or null for any other path:
 * `/objects` (the objects), `/objects/:key` (its records), `/objects/:key/new`,
 * `/objects/:key/:id/edit`, and the definitions under Settings,
 * `/settings/custom-objects` and `/settings/custom-objects/:key`.
 */
export function customObjectScreen(path: string): ReactElement | null {
  if (matchRoute(ADMIN_PATH, path)) return <ObjectsAdminScreen />;
  const admin = matchRoute(`${ADMIN_PATH}/:key`, path);
  if (admin) return <ObjectAdminPage key={admin.key} objectKey={admin.key} />;
  if (matchRoute(OBJECTS_PATH, path)) return <ObjectsIndexScreen />;
  const create = matchRoute(`${OBJECTS_PATH}/:key/new`, path);
  if (create) return <RecordFormScreen key={`${create.key}/new`} objectKey={create.key} id={null} />;
  const edit = matchRoute(`${OBJECTS_PATH}/:key/:id/edit`, path);
  if (edit) return <RecordFormScreen key={`${edit.key}/${edit.id}`} objectKey={edit.key} id={edit.id} />;
  const list = matchRoute(`${OBJECTS_PATH}/:key`, path);
  return list ? <RecordsScreen key={list.key} objectKey={list.key} /> : null;
}
