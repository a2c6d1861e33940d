import { askToConfirm } from './ConfirmDialog.js';

export interface ConfirmWords {
  /** The button, and the dialog's confirming button ("Delete", "Deactivate"). */
  button: string;
  /** The confirming button's text while acting ("Deleting…"). */
  doing: string;
  /** Said when the action failed without a message of its own ("Car 12 could not be deleted."). */
  failed: string;
}

interface Props {
  words: ConfirmWords;
  /** What it acts on, as people call it: in the button's accessible name ("Delete Car 12") and the dialog's ("Delete Car 12?"). */
  name: string;
  /** What the dialog says follows. */
  question: string;
  /** A destructive action: the buttons say so by their colour. */
  danger: boolean;
  /** The layout's class (`confirm-delete` at a row's end, `confirm-action` in a form). */
  className: string;
  /** Acts; a refusal (an ApiFailure or SupportFailure, whose message says why) is shown in the dialog. */
  onConfirm(): Promise<void>;
}

/**
 * A button that asks in the app's confirmation dialog before acting, so
 * nothing goes on one click; the server's refusal is shown in the dialog.
 * ConfirmDelete and the team's deactivation use it.
 */
export function ConfirmButton({ words, name, question, danger, className, onConfirm }: Props) {
  const ask = () => askToConfirm({
    title: `${words.button} ${name}?`, detail: question, confirm: words.button, doing: words.doing, danger, action: onConfirm, failed: words.failed,
  });
  return (
    <div className={className}>
      <button type="button" className={danger ? 'danger' : undefined} aria-label={`${words.button} ${name}`} onClick={() => void ask()}>{words.button}</button>
    </div>
  );
}
