import { useRef } from 'react';
import { Link } from '../router/Link.js';
import { counted, IMPORT_NOUNS, validRowCount, type ImportUnit, type Refusal } from './importText.js';
import type { ImportField, ImportResult, RowError } from './types.js';
import { inWords } from '../api/formErrors.js';
import { humanized } from '../shell/words.js';

/** Long lists of problems show their first rows; the count says how many there are in all. */
const SHOWN_ERRORS = 100;

/** The import's fields by name, as labelled (`address.city` → "City"); a field it does not list, in words. */
function labelsOf(fields: readonly ImportField[] = []): (name: string) => string {
  const labels = new Map(fields.map((f) => [f.name, f.label]));
  return (name) => labels.get(name) ?? humanized(name.replace(/\./g, ' '));
}

/** "Row 3 — Email: is not an email address", one line per problem, the field by its label. */
export function RowErrorList({ errors, unit, label, fields }: { errors: RowError[]; unit: ImportUnit; label: string; fields?: readonly ImportField[] }) {
  const shown = errors.slice(0, SHOWN_ERRORS);
  const labelOf = labelsOf(fields);
  const messageOf = (e: RowError) => inWords(e.message, e.field ? { [e.field]: labelOf(e.field) } : {});
  return (
    <div className="row-errors">
      <ul aria-label={label}>
        {shown.map((e, i) => (
          <li key={`${e.row}-${e.field}-${i}`}>
            <strong>{unit === 'row' ? 'Row' : 'Card'} {e.row}</strong> — {e.field ? <>{labelOf(e.field)}{sourceText(e.source, unit)}: </> : null}{messageOf(e)}
          </li>
        ))}
      </ul>
      {errors.length > shown.length && <p className="muted">…and {(errors.length - shown.length).toLocaleString()} more problems.</p>}
    </div>
  );
}

/** Where a value came from, when the file calls it something else than the field: ` (column "E-mail")`. */
function sourceText(source: string | null | undefined, unit: ImportUnit): string {
  if (!source) return '';
  return unit === 'row' ? ` (column “${source}”)` : ` (${source})`;
}

/** The file input of an import step; picking a file hands over its name and text. */
export function FilePicker({ label, accept, onFile }: { label: string; accept: string; onFile(file: File): void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <label className="file-picker">
      <span>{label}</span>
      <input ref={input} type="file" accept={accept} aria-label={label}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onFile(file);
          // Cleared, so choosing the same file again (after fixing it) is a change too.
          if (input.current) input.current.value = '';
        }} />
    </label>
  );
}

/** What an import did: how many records it created, a link to them, and the rows it skipped. */
export function ImportOutcome({ result, unit, fields, onAgain }: { result: ImportResult; unit: ImportUnit; fields?: readonly ImportField[]; onAgain(): void }) {
  const nouns = IMPORT_NOUNS[result.resource_type];
  const rejected: RowError[] = result.rejected.flatMap((r) => r.errors.map((e) => ({ row: r.row, ...e })));
  const organizations = result.created_organization_ids?.length ?? 0;
  return (
    <section className="card import-outcome" aria-label="Import finished">
      <h2 role="status">Imported {counted(result.imported, nouns.one, nouns.many)}</h2>
      {organizations > 0 && <p>{counted(organizations, 'organization was', 'organizations were')} created for the people who belong to one.</p>}
      {result.rejected.length > 0 && (
        <>
          <p>{counted(result.rejected.length, unit, `${unit}s`)} had problems and {result.rejected.length === 1 ? 'was' : 'were'} skipped:</p>
          <RowErrorList errors={rejected} unit={unit} label="Skipped" fields={fields} />
        </>
      )}
      <div className="actions">
        <Link to={nouns.list} className="button primary">Show the {nouns.many}</Link>
        <button type="button" onClick={onAgain}>Import another file</button>
      </div>
    </section>
  );
}

/** "3 rows in the file, as they will be imported:" above a preview of the first ones. */
export function SampleIntro({ total, shown, unit }: { total: number; shown: number; unit: ImportUnit }) {
  return (
    <p>
      {counted(total, unit, `${unit}s`)} in the file{shown < total ? `; the first ${shown} as they will be imported:` : ', as they will be imported:'}
    </p>
  );
}

/** A refused import names the problems as the engine found them at that moment; otherwise the preview's stand. */
export function currentErrors(previewErrors: RowError[], refusal: Refusal | null): RowError[] {
  return refusal && refusal.errors.length > 0 ? refusal.errors : previewErrors;
}

interface ImportChecksProps {
  /** Rows (or cards) in the file. */
  total: number;
  errors: RowError[];
  refusal: Refusal | null;
  unit: ImportUnit;
  noun: { one: string; many: string };
  /** The fields the file's columns fill, for the problems' labels (a CSV import's; a vCard's fields are named in words). */
  fields?: readonly ImportField[];
  busy: boolean;
  onImport(skipInvalid: boolean): void;
}

/**
 * The problems of the rows (or cards), why an import was refused, and the
 * buttons: import everything (all or nothing: the default), and when some
 * rows have problems, import the valid ones and skip the rest.
 */
export function ImportChecks({ total, errors, refusal, unit, noun, fields, busy, onImport }: ImportChecksProps) {
  const valid = validRowCount(total, errors);
  const withProblems = valid < total;
  return (
    <>
      {withProblems && (
        <>
          <h3>{counted(total - valid, `${unit} has`, `${unit}s have`)} problems</h3>
          <RowErrorList errors={errors} unit={unit} label="Problems" fields={fields} />
        </>
      )}
      {refusal && <p className="form-error" role="alert">{refusal.message}</p>}
      <div className="actions">
        <button type="button" className={withProblems ? undefined : 'primary'} disabled={busy} onClick={() => onImport(false)}>
          {busy ? 'Importing…' : `Import ${counted(total, noun.one, noun.many)}`}
        </button>
        {withProblems && valid > 0 && (
          <button type="button" className="primary" disabled={busy} onClick={() => onImport(true)}>
            Import the {counted(valid, `valid ${unit}`, `valid ${unit}s`)}, skip the rest
          </button>
        )}
        <span className="muted">
          {withProblems
            ? `All or nothing: while ${unit}s have problems, importing all of them is refused and nothing is written.`
            : `All ${unit}s are imported together, or none.`}
        </span>
      </div>
    </>
  );
}
