import { useEffect, useState } from 'react';
import { api } from '../api/client.js';
import { showPhone } from '../records/phoneFormat.js';
import { Link } from '../router/Link.js';
import { currentErrors, FilePicker, ImportChecks, ImportOutcome, SampleIntro } from './ImportParts.js';
import { fileTextProblem, IMPORT_NOUNS, type Refusal } from './importText.js';
import { useImportRun } from './useImportRun.js';
import { useOpenedFile, type OpenedFile } from './openedFiles.js';
import type { ImportResult, VcardPreview } from './types.js';
import { DataTable } from '../lists/DataTable.js';
import './importExport.css';
import { refusalText } from '../api/formErrors.js';

/** A file to import, and whether the desktop app opened it (rather than the picker). */
type ImportFile = OpenedFile & { opened?: boolean };

/** What the engine found in a file: its cards as they would be imported, or why it cannot import it. */
interface Parsed {
  file: ImportFile;
  preview: VcardPreview | null;
  error: string | null;
}

/**
 * Import contacts from a vCard file (4.0 or 3.0): choose it, or open it with
 * the desktop app, check the cards and their problems, import. All or
 * nothing by default; with problems, the valid cards can be imported and the
 * rest listed.
 */
export function VcardImportScreen() {
  // Each file the desktop app opens starts the screen afresh, with that file.
  const opened = useOpenedFile((s) => s.opened);
  const vcard = useOpenedFile((s) => s.vcard);
  return <VcardImport key={opened} initial={vcard} />;
}

function VcardImport({ initial }: { initial: OpenedFile | null }) {
  const [file, setFile] = useState<ImportFile | null>(initial && { ...initial, opened: true });
  const [parsed, setParsed] = useState<Parsed | null>(null);
  const importing = useImportRun('card', (skipInvalid) =>
    api.create<ImportResult>('/v2/contacts/import_vcard', { vcard: file?.text, skip_invalid: skipInvalid || undefined }));

  // The screen holds the opened file now: coming back later starts empty.
  useEffect(() => useOpenedFile.getState().clear(), []);

  // The engine reads the cards (the same reading as the import's), so the preview shows what will happen.
  const problem = file ? fileTextProblem(file.text, 'vCard') : null;
  useEffect(() => {
    if (!file || problem) return;
    let live = true;
    api.create<VcardPreview>('/v2/contacts/import_vcard/preview', { vcard: file.text }).then(
      (preview) => live && setParsed({ file, preview, error: null }),
      (err) => live && setParsed({ file, preview: null, error: refusalText(err, 'The file could not be read.') }),
    );
    return () => {
      live = false;
    };
  }, [file, problem]);
  // Until the file just chosen is read, nothing of an earlier one shows.
  const current = parsed?.file === file ? parsed : null;
  const fileError = problem ?? current?.error ?? null;

  const choose = async (picked: File) => {
    const text = await picked.text();
    setFile({ name: picked.name, text });
    importing.reset();
  };

  const startOver = () => {
    setFile(null);
    importing.reset();
  };

  return (
    <section className="screen import-screen">
      <header className="screen-header">
        <h1>Import contacts from vCard</h1>
        <Link to="/contacts">Back to the contacts</Link>
      </header>
      {importing.result ? <ImportOutcome result={importing.result} unit="card" onAgain={startOver} /> : (
        <>
          <section className="card import-step" aria-label="Choose a file">
            <h2>1. Choose a vCard file</h2>
            <p className="muted">A .vcf file of one or more cards (vCard 4.0 or 3.0), as address books and phones export them. Nothing is imported until you confirm.</p>
            <FilePicker label="vCard file" accept=".vcf,.vcard,text/vcard,text/x-vcard" onFile={(f) => void choose(f)} />
            {file && <p className="muted">{file.opened ? 'Opened with Outpost' : 'Chosen'}: {file.name}</p>}
            {fileError && <p className="form-error" role="alert">{fileError}</p>}
          </section>
          {current?.preview && <CardsStep preview={current.preview} refusal={importing.refusal} busy={importing.busy} onImport={importing.run} />}
        </>
      )}
    </section>
  );
}

interface CardsProps {
  preview: VcardPreview;
  refusal: Refusal | null;
  busy: boolean;
  onImport(skipInvalid: boolean): void;
}

function CardsStep({ preview, refusal, busy, onImport }: CardsProps) {
  const errors = currentErrors(preview.errors, refusal);
  return (
    <section className="card import-step" aria-label="Check and import">
      <h2>2. Check and import</h2>
      <SampleIntro total={preview.rows} shown={preview.sample.length} unit="card" />
      <div className="table-scroll">
        <DataTable label="Cards" framed={false} className="preview-table" rows={preview.sample} rowKey={(card) => card.row}
          rowClass={(card) => (errors.some((e) => e.row === card.row) ? 'invalid' : undefined)}
          columns={[
            { label: 'Card', kind: 'muted', cell: ({ row }) => row },
            { label: 'Name', kind: 'title', cell: ({ values }) => (values.is_organization === 'true' ? values.name : [values.first_name, values.last_name].filter(Boolean).join(' ')) },
            { label: 'Organization', cell: ({ values }) => (values.is_organization === 'true' ? <span className="badge">Organization</span> : values.organization_name) },
            { label: 'Email', cell: ({ values }) => values.email },
            { label: 'Phone', cell: ({ values }) => showPhone(values.phone ?? values.mobile ?? '').text },
            { label: 'City', cell: ({ values }) => values['address.city'] },
          ]} />
      </div>
      <ImportChecks total={preview.rows} errors={errors} refusal={refusal} unit="card" noun={IMPORT_NOUNS.contact} busy={busy} onImport={onImport} />
    </section>
  );
}
