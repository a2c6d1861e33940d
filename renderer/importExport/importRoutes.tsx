import type { ReactElement } from 'react';
import { matchRoute } from '../router/routerStore.js';
import { CsvImportScreen } from './CsvImportScreen.js';
import { VcardImportScreen } from './VcardImportScreen.js';
import { VCARD_IMPORT_PATH } from './openedFiles.js';

export const CSV_IMPORT_PATHS = { contact: '/contacts/import', lead: '/leads/import' } as const;

/** The import screens (under /contacts and /leads, so the sidebar shows where they belong); null for any other path. */
export function importScreen(path: string): ReactElement | null {
  if (matchRoute(CSV_IMPORT_PATHS.contact, path)) return <CsvImportScreen key="contact" type="contact" />;
  if (matchRoute(CSV_IMPORT_PATHS.lead, path)) return <CsvImportScreen key="lead" type="lead" />;
  if (matchRoute(VCARD_IMPORT_PATH, path)) return <VcardImportScreen />;
  return null;
}
