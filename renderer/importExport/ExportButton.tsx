import { useState } from 'react';
import type { QueryValue } from '../../shared/bridge.js';
import { api } from '../api/client.js';
import { saveFile } from './saveFile.js';
import './importExport.css';
import { refusalText } from '../api/formErrors.js';

interface Props {
  /** The export endpoint, e.g. `/v2/leads/export.csv`. */
  path: string;
  /** The list's filters and sort, exactly as the list view sends them (paging is dropped: an export has every match). */
  query?: Record<string, QueryValue>;
  label: string;
  /** What is exported, for screen readers ("Export the leads shown as CSV"). */
  description?: string;
}

const PAGING = new Set(['page', 'per_page']);

/** The list's query without paging. */
export function exportQuery(query: Record<string, QueryValue> | undefined): Record<string, QueryValue> {
  return Object.fromEntries(Object.entries(query ?? {}).filter(([key]) => !PAGING.has(key)));
}

/** The CSV export of a list resource (`contacts`, `sequence_enrollments`, …). */
export const csvExportPath = (resource: string) => `/v2/${resource}/export.csv`;

/** A button that downloads an export and saves it; a refusal shows next to it. */
export function ExportButton({ path, query, label, description }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const download = async () => {
    setBusy(true);
    try {
      saveFile(await api.download(path, exportQuery(query)));
      setError(null);
    } catch (err) {
      setError(refusalText(err, 'The export could not be downloaded.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <span className="export-button">
      <button type="button" onClick={() => void download()} disabled={busy} aria-description={description} aria-busy={busy}>
        {busy ? 'Exporting…' : label}
      </button>
      {error && <span className="field-error" role="alert">{error}</span>}
    </span>
  );
}

/** "Export CSV" of a list view: what the view shows, by its filters and sort, its columns named as the app names the fields. */
export function CsvExportButton({ resource, query, what }: { resource: string; query?: Record<string, QueryValue>; what: string }) {
  return <ExportButton path={csvExportPath(resource)} query={{ ...query, headers: 'labels' }} label="Export CSV" description={`Export the ${what} shown as a CSV file`} />;
}
