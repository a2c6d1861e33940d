import { useRef, useState } from 'react';
import { api } from '../api/client.js';
import { Link } from '../router/Link.js';
import { currentErrors, FilePicker, ImportChecks, ImportOutcome, SampleIntro } from './ImportParts.js';
import { fileTextProblem, IMPORT_NOUNS, type Refusal } from './importText.js';
import { useImportRun } from './useImportRun.js';
import type { ColumnMapping, ImportPreview, ImportResourceType, ImportResult } from './types.js';
import { DataTable, type Column } from '../lists/DataTable.js';
import './importExport.css';
import { refusalText } from '../api/formErrors.js';

interface ChosenFile {
  name: string;
  text: string;
}

/**
 * Import contacts or leads from a CSV file: choose the file, map its columns
 * to fields (the engine suggests a mapping from the column names), check the
 * first rows and every row's problems, then import. All or nothing by
 * default; with problems, the valid rows can be imported and the rest listed.
 */
export function CsvImportScreen({ type }: { type: ImportResourceType }) {
  const nouns = IMPORT_NOUNS[type];
  const [file, setFile] = useState<ChosenFile | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const importing = useImportRun('row', (skipInvalid) =>
    api.create<ImportResult>('/v2/imports', { resource_type: type, csv: file?.text, mapping, skip_invalid: skipInvalid || undefined }));
  // Each preview request gets a number; an answer to an older one is dropped.
  const generation = useRef(0);

  const runPreview = async (chosen: ChosenFile, wanted?: ColumnMapping) => {
    const mine = ++generation.current;
    try {
      const answer = await api.create<ImportPreview>('/v2/imports/preview', { resource_type: type, csv: chosen.text, mapping: wanted });
      if (mine !== generation.current) return;
      setPreview(answer);
      setMapping(answer.mapping);
      setFileError(null);
    } catch (err) {
      if (mine !== generation.current) return;
      // Without a mapping the refusal is about the file itself; with one, about the mapping chosen.
      if (wanted) importing.refuse({ message: refusalText(err, 'The mapping could not be checked.'), errors: [] });
      else {
        setPreview(null);
        setFileError(refusalText(err, 'The file could not be read.'));
      }
    }
  };

  const choose = async (picked: File) => {
    const chosen = { name: picked.name, text: await picked.text() };
    importing.reset();
    setPreview(null);
    setFile(chosen);
    const problem = fileTextProblem(chosen.text, 'CSV');
    if (problem) {
      generation.current++;
      setFileError(problem);
      return;
    }
    setFileError(null);
    await runPreview(chosen);
  };

  const remap = (header: string, field: string | null) => {
    if (!file) return;
    const next = { ...mapping, [header]: field };
    setMapping(next);
    importing.refuse(null);
    void runPreview(file, next);
  };

  const startOver = () => {
    generation.current++;
    setFile(null);
    setPreview(null);
    setFileError(null);
    importing.reset();
  };

  return (
    <section className="screen import-screen">
      <header className="screen-header">
        <h1>Import {nouns.many} from CSV</h1>
        <Link to={nouns.list}>Back to the {nouns.many}</Link>
      </header>
      {importing.result ? <ImportOutcome result={importing.result} unit="row" fields={preview?.fields} onAgain={startOver} /> : (
        <>
          <section className="card import-step" aria-label="Choose a file">
            <h2>1. Choose a CSV file</h2>
            <p className="muted">
              The first row names the columns. Export from a spreadsheet as “CSV UTF-8”. Nothing is imported until you confirm.
            </p>
            <FilePicker label="CSV file" accept=".csv,text/csv" onFile={(f) => void choose(f)} />
            {file && <p className="muted">Chosen: {file.name}</p>}
            {fileError && <p className="form-error" role="alert">{fileError}</p>}
          </section>
          {preview && file && (
            <>
              <MappingStep preview={preview} mapping={mapping} onChange={remap} />
              <CheckStep preview={preview} mapping={mapping} refusal={importing.refusal} busy={importing.busy} onImport={importing.run} nouns={nouns} />
            </>
          )}
        </>
      )}
    </section>
  );
}

/** One select per CSV column: the field it fills, or "Don't import". */
function MappingStep({ preview, mapping, onChange }: { preview: ImportPreview; mapping: ColumnMapping; onChange(header: string, field: string | null): void }) {
  const mapped = new Set(Object.values(mapping).filter(Boolean));
  const missing = preview.fields.filter((f) => f.required && !mapped.has(f.name));
  const notes = preview.fields.filter((f) => f.requirement && mapped.has(f.name));
  return (
    <section className="card import-step" aria-label="Map the columns">
      <h2>2. Map the columns</h2>
      <DataTable label="Columns" framed={false} className="mapping-table" rows={preview.headers} rowKey={(header) => header} columns={[
        { label: 'Column in the file', kind: 'title', cell: (header) => header || <span className="muted">(no name)</span> },
        {
          label: 'Import as', cell: (header) => (
            <select aria-label={`Import column ${header} as`} value={mapping[header] ?? ''} onChange={(e) => onChange(header, e.target.value || null)}>
              <option value="">Don’t import</option>
              {preview.fields.map((f) => <option key={f.name} value={f.name}>{f.label}{f.required ? ' *' : ''}</option>)}
            </select>
          ),
        },
      ]} />
      {notes.length > 0 && (
        <ul className="mapping-notes muted" aria-label="How the mapped fields are read">
          {notes.map((f) => <li key={f.name}><strong>{f.label}</strong>: {f.requirement}</li>)}
        </ul>
      )}
      {missing.length > 0 && <p className="notice" role="note">Required and not mapped yet: {missing.map((f) => f.label).join(', ')}.</p>}
    </section>
  );
}

interface CheckProps {
  preview: ImportPreview;
  mapping: ColumnMapping;
  refusal: Refusal | null;
  busy: boolean;
  onImport(skipInvalid: boolean): void;
  nouns: { one: string; many: string };
}

/** The first rows as they would be imported, every row's problems, and the import buttons. */
function CheckStep({ preview, mapping, refusal, busy, onImport, nouns }: CheckProps) {
  const errors = currentErrors(preview.errors, refusal);
  const fields = preview.headers.map((h) => mapping[h]).filter((f): f is string => Boolean(f));
  const labelOf = (name: string) => preview.fields.find((f) => f.name === name)?.label ?? name;

  return (
    <section className="card import-step" aria-label="Check and import">
      <h2>3. Check and import</h2>
      <SampleIntro total={preview.rows} shown={preview.sample.length} unit="row" />
      <div className="table-scroll">
        <DataTable label="Preview" framed={false} className="preview-table" rows={preview.sample} rowKey={(s) => s.row}
          rowClass={(s) => (errors.some((e) => e.row === s.row) ? 'invalid' : undefined)}
          columns={[
            { label: 'Row', kind: 'muted', cell: (s) => s.row },
            ...fields.map((f): Column<ImportPreview['sample'][number]> => ({ label: labelOf(f), cell: (s) => cellText(s.values[f]) })),
          ]} />
      </div>
      <ImportChecks total={preview.rows} errors={errors} refusal={refusal} unit="row" noun={nouns} fields={preview.fields} busy={busy} onImport={onImport} />
    </section>
  );
}

/** A sample value as text: lists joined, nested values as JSON, nothing as blank. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(cellText).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
