import type { ReactNode } from 'react';
import { ADDRESS_KEYS, type Address } from '../../shared/resources/address.js';
import { Link } from '../router/Link.js';
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

export function formatAddress(address: Address | null): string {
  return address ? ADDRESS_KEYS.map((k) => address[k]).filter(Boolean).join(', ') : '';
}

export function formatCustomValue(value: unknown): string {
  return Array.isArray(value) ? value.join(', ') : String(value ?? '');
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
