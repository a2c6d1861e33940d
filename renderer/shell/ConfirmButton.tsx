import { useEffect, useRef, useState } from 'react';
import { refusalText } from '../api/formErrors.js';

export interface ConfirmWords {
  /** The button ("Delete", "Deactivate"). */
  button: string;
  /** The confirming button ("Yes, delete") and its text while acting ("Deleting…"). */
  yes: string;
  doing: string;
  /** The confirmation group's accessible name ("Confirm deleting Car 12"). */
  group: string;
  /** Said when the action failed without a message of its own ("Car 12 could not be deleted."). */
  failed: string;
}

interface Props {
  words: ConfirmWords;
  /** What it acts on, as people call it: in the button's accessible name ("Delete Car 12"). */
  name: string;
  /** The question asked in place, saying what follows. */
  question: string;
  /** A destructive action: the buttons say so by their colour. */
  danger: boolean;
  /** The layout's class (`confirm-delete` at a row's end, `confirm-action` in a form). */
  className: string;
  /** Acts; a refusal (an ApiFailure or SupportFailure, whose message says why) is shown by the button. */
  onConfirm(): Promise<void>;
}

/**
 * A button that asks in place before acting, so nothing goes on one click
 * and no modal dialog takes the keyboard away; the server's refusal is
 * shown next to it. ConfirmDelete and the team's deactivation use it.
 */
export function ConfirmButton({ words, name, question, danger, className, onConfirm }: Props) {
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
      // The API's refusal in words; an error of the screen's own (a count it checked first) by its message.
      setError(refusalText(err, err instanceof Error && err.message ? err.message : words.failed));
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  return (
    <div className={className}>
      {confirming ? (
        <div className="confirm" role="group" aria-label={words.group}>
          <span>{question}</span>
          <button type="button" className={danger ? 'danger' : 'primary'} ref={yes} disabled={busy} onClick={() => void confirm()}>{busy ? words.doing : words.yes}</button>
          <button type="button" disabled={busy} onClick={() => setConfirming(false)}>Cancel</button>
        </div>
      ) : (
        <button type="button" className={danger ? 'danger' : undefined} aria-label={`${words.button} ${name}`} onClick={() => {
          setError(null);
          setConfirming(true);
        }}>{words.button}</button>
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
    </div>
  );
}
