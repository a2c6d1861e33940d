import type { ReactNode } from 'react';
import type { Address } from '../../shared/resources/address.js';
import { addressLines } from '../records/addressFormat.js';
import { Link } from '../router/Link.js';
import { formatDay } from '../tasks/taskDates.js';
import type { RecordProblem } from './useRecord.js';

/** One label and value in a record's details list. */
export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** An address as its country writes it, a line each (records/addressFormat.ts); a dash when it is empty. */
export function AddressText({ address }: { address: Address | null }) {
  const lines = addressLines(address);
  if (lines.length === 0) return <>—</>;
  return <span className="address-lines">{lines.map((line, i) => <span key={i}>{line}</span>)}</span>;
}

/** A custom field's value for people: lists joined, yes/no for a checkbox, a date field's day as people write it. */
export function formatCustomValue(value: unknown): string {
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return formatDay(value);
  return String(value ?? '');
}

/** What a record page shows instead of the record when it could not be read. */
export function RecordProblemMessage({ problem, noun, listPath }: { problem: RecordProblem; noun: string; listPath: string }) {
  return (
    <section className="screen">
      <p className="form-error" role="alert">
        {problem === 'gone' ? `This ${noun} does not exist.` : `The ${noun} could not be loaded.`}{' '}
        <Link to={listPath}>Go back to the list</Link>
      </p>
    </section>
  );
}
