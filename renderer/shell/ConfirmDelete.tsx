import { useEffect, useRef, useState } from 'react';

const WORDS = {
  delete: { button: 'Delete', doing: 'Deleting…', confirming: 'deleting', failed: 'deleted' },
  remove: { button: 'Remove', doing: 'Removing…', confirming: 'removing', failed: 'removed' },
} as const;

interface Props {
  /** What goes, as people call it ("Car 12", "the Color field"): used in the buttons' and the question's names. */
  name: string;
  /** The question asked in place, saying what else goes with it. */
  question: string;
  /** "Remove" for things taken off a list rather than destroyed (an application). */
  verb?: keyof typeof WORDS;
  /** Deletes; a refusal (an ApiFailure or SupportFailure, whose message says why) is shown by the button. */
  onConfirm(): Promise<void>;
}

/**
 * A Delete (or Remove) button that asks in place before acting, so nothing
 * goes on one click and no modal dialog takes the keyboard away; the
 * server's refusal is shown next to it (deleting an object a lookup of
 * another object targets, say, names those lookups).
 */
export function ConfirmDelete({ name, question, verb = 'delete', onConfirm }: Props) {
  const words = WORDS[verb];
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
      setError(err instanceof Error && err.message ? err.message : `${name} could not be ${words.failed}.`);
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="confirm-delete">
      {confirming ? (
        <div className="confirm" role="group" aria-label={`Confirm ${words.confirming} ${name}`}>
          <span>{question}</span>
          <button type="button" className="danger" ref={yes} disabled={busy} onClick={() => void confirm()}>{busy ? words.doing : `Yes, ${verb}`}</button>
          <button type="button" disabled={busy} onClick={() => setConfirming(false)}>Cancel</button>
        </div>
      ) : (
        <button type="button" className="danger" aria-label={`${words.button} ${name}`} onClick={() => {
          setError(null);
          setConfirming(true);
        }}>{words.button}</button>
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
    </div>
  );
}
