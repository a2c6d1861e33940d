import { useState } from 'react';
import { refusalOf, type ImportUnit, type Refusal } from './importText.js';
import type { ImportResult } from './types.js';

export interface ImportRun {
  busy: boolean;
  /** Why the last attempt was refused (nothing was written then), or null. */
  refusal: Refusal | null;
  /** What the import did once it succeeded, or null. */
  result: ImportResult | null;
  run(skipInvalid: boolean): void;
  refuse(refusal: Refusal | null): void;
  reset(): void;
}

/** One import request at a time, and its outcome: a result, or a refusal naming the rows (or cards) at fault. */
export function useImportRun(unit: ImportUnit, send: (skipInvalid: boolean) => Promise<ImportResult>): ImportRun {
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);

  const run = async (skipInvalid: boolean) => {
    setBusy(true);
    try {
      setResult(await send(skipInvalid));
      setRefusal(null);
    } catch (err) {
      setRefusal(refusalOf(err, unit));
    } finally {
      setBusy(false);
    }
  };
  const reset = () => {
    setResult(null);
    setRefusal(null);
  };
  return { busy, refusal, result, run: (skipInvalid) => void run(skipInvalid), refuse: setRefusal, reset };
}
