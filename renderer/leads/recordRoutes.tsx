import type { ComponentType, ReactElement } from 'react';
import { matchRoute } from '../router/routerStore.js';

interface RecordScreens {
  List: ComponentType;
  Page: ComponentType<{ id: number }>;
  Form: ComponentType<{ id: number | null }>;
}

/** The screens of one kind of record under `base`: the list, `new`, a record's page and its `edit` form; null for other paths. */
export function recordRoutes(base: string, { List, Page, Form }: RecordScreens): (path: string) => ReactElement | null {
  return (path) => {
    if (matchRoute(base, path)) return <List />;
    if (matchRoute(`${base}/new`, path)) return <Form id={null} />;
    const edit = matchRoute(`${base}/:id/edit`, path);
    if (edit) return <Form key={edit.id} id={Number(edit.id)} />;
    const page = matchRoute(`${base}/:id`, path);
    return page ? <Page key={page.id} id={Number(page.id)} /> : null;
  };
}
