import type { ComponentType, ReactElement } from 'react';
import { matchRoute } from '../router/routerStore.js';
import { matchRecordPath } from '../router/recordPaths.js';

interface RecordScreens {
  List: ComponentType;
  Page: ComponentType<{ id: number }>;
  Form: ComponentType<{ id: number | null }>;
}

/**
 * The screens of one kind of record under `base`: the list, `new`, a
 * record's page and its `edit` form (`local/3` for one not yet on the hub);
 * null for other paths, `/contacts/abc` included.
 */
export function recordRoutes(base: string, { List, Page, Form }: RecordScreens): (path: string) => ReactElement | null {
  return (path) => {
    if (matchRoute(base, path)) return <List />;
    if (matchRoute(`${base}/new`, path)) return <Form id={null} />;
    const record = matchRecordPath(base, path);
    if (!record) return null;
    return record.edit ? <Form key={record.id} id={record.id} /> : <Page key={record.id} id={record.id} />;
  };
}
