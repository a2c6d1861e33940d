import { useEffect, useRef, useState } from 'react';
import { SupportFailure } from '../api/supportClient.js';

interface Props {
  /** What is deleted, as people call it ("Car 12", "the Color field"): used in the button's and the question's names. */
  name: string;
  /** The question asked in place, saying what else goes with it. */
  question: string;
  /** Deletes; a refusal (SupportFailure) is shown by the button. */
  onConfirm(): Promise<void>;
}

/**
 * A Delete button that asks in place before deleting (as the applications
 * list does), with the interface's refusal shown next to it: deleting an
 * object a lookup of another object targets, say, names those lookups.
 */
export function ConfirmDelete({ name, question, onConfirm }: Props) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const yes = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (confirming) yes.current?.focus();
  }, [confirming]);

  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } catch (err) {
      setError(err instanceof SupportFailure ? err.message : `${name} could not be deleted.`);
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="confirm-delete">
      {confirming ? (
        <div className="confirm" role="group" aria-label={`Confirm deleting ${name}`}>
          <span>{question}</span>
          <button type="button" className="danger" ref={yes} disabled={busy} onClick={() => void confirm()}>{busy ? 'Deleting…' : 'Yes, delete'}</button>
          <button type="button" disabled={busy} onClick={() => setConfirming(false)}>Cancel</button>
        </div>
      ) : (
        <button type="button" className="danger" aria-label={`Delete ${name}`} onClick={() => {
          setError(null);
          setConfirming(true);
        }}>Delete</button>
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
    </div>
  );
}
