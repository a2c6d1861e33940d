import { ConfirmButton } from './ConfirmButton.js';

const WORDS = {
  delete: { button: 'Delete', doing: 'Deleting…', failed: 'deleted' },
  remove: { button: 'Remove', doing: 'Removing…', failed: 'removed' },
} as const;

interface Props {
  /** What goes, as people call it ("Car 12", "the Color field"): used in the buttons' and the question's names. */
  name: string;
  /** The dialog's words, saying what else goes with it. */
  question: string;
  /** "Remove" for things taken off a list rather than destroyed (an application). */
  verb?: keyof typeof WORDS;
  /** Deletes; a refusal (an ApiFailure or SupportFailure, whose message says why) is shown by the button. */
  onConfirm(): Promise<void>;
}

/**
 * A Delete (or Remove) button that asks in the confirmation dialog before
 * acting; the server's refusal is shown in it (deleting an object a lookup
 * of another object targets, say, names those lookups).
 */
export function ConfirmDelete({ name, question, verb = 'delete', onConfirm }: Props) {
  const words = WORDS[verb];
  return (
    <ConfirmButton name={name} question={question} danger className="confirm-delete" onConfirm={onConfirm} words={{
      button: words.button, doing: words.doing, failed: `${name} could not be ${words.failed}.`,
    }} />
  );
}
