import { ConfirmButton } from '../../shell/ConfirmButton.js';

interface Props {
  /** The button ("Deactivate"), and its accessible name with the person's name. */
  label: string;
  name: string;
  /** The dialog's words, saying what follows. */
  question: string;
  danger?: boolean;
  /** Acts; a refusal's message (the API's, in words) is shown by the button. */
  onConfirm(): Promise<void>;
}

/** A button that asks in the confirmation dialog before acting (as ConfirmDelete does), for deactivating and reactivating someone. */
export function ConfirmAction({ label, name, question, danger = false, onConfirm }: Props) {
  return (
    <ConfirmButton name={name} question={question} danger={danger} className="confirm-action" onConfirm={onConfirm} words={{
      button: label, doing: 'Saving…', failed: `${name} could not be changed.`,
    }} />
  );
}
