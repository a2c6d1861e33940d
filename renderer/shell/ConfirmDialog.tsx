import { useId, useRef, useState } from 'react';
import { create } from 'zustand';
import { refusalText } from '../api/formErrors.js';
import { useModalDialog } from '../commands/useModalDialog.js';
import './confirm.css';

/** What the app asks before an action that cannot be taken back. */
export interface ConfirmRequest {
  /** The question, the dialog's name ("Delete Car 12?"). */
  title: string;
  /** What follows, in words ("Its line items go with it. This cannot be undone."). */
  detail?: string;
  /** The confirming button, named by the action ("Delete", "Deactivate", "Turn off"). */
  confirm: string;
  /** That button's text while the action runs ("Deleting…"). */
  doing?: string;
  /** A destructive action (the default): the confirming button says so by its colour. */
  danger?: boolean;
  /**
   * Runs on confirming while the dialog stays open; a refusal (an ApiFailure
   * or SupportFailure, or an Error of the screen's own) is shown in the dialog,
   * which then stays for the rep to read and cancel.
   */
  action?(): Promise<void>;
  /** Said when the action failed without a message of its own. */
  failed?: string;
}

interface Pending extends ConfirmRequest {
  /** Each question its own dialog (a new one is a new element, focus and all). */
  id: number;
  resolve(confirmed: boolean): void;
}

let asked = 0;

const useConfirmStore = create<{ pending: Pending | null }>(() => ({ pending: null }));

/**
 * Asks in the app's one confirmation dialog (never the browser's own box);
 * answers whether the rep confirmed (and, with an `action`, whether it
 * succeeded). A question asked while another is open replaces it, as
 * cancelled.
 *
 *     if (!(await askToConfirm({ title: `Delete ${name}?`, confirm: 'Delete' }))) return;
 */
export function askToConfirm(request: ConfirmRequest): Promise<boolean> {
  return new Promise((resolve) => {
    useConfirmStore.getState().pending?.resolve(false);
    useConfirmStore.setState({ pending: { ...request, id: ++asked, resolve } });
  });
}

function settle(pending: Pending, confirmed: boolean): void {
  if (useConfirmStore.getState().pending === pending) useConfirmStore.setState({ pending: null });
  pending.resolve(confirmed);
}

/** Where the question shows: once, in the app's shell. */
export function ConfirmHost() {
  const pending = useConfirmStore((s) => s.pending);
  return pending ? <ConfirmDialog key={pending.id} request={pending} onDone={(confirmed) => settle(pending, confirmed)} /> : null;
}

/**
 * The modal confirmation: the question, what follows, the action's button
 * and Cancel. Focus starts on Cancel (the choice that loses nothing) and
 * returns to the button that asked; Escape cancels.
 */
function ConfirmDialog({ request, onDone }: { request: ConfirmRequest; onDone(confirmed: boolean): void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const dialog = useModalDialog(() => cancel.current);
  const titleId = useId();
  const detailId = useId();

  const confirm = async () => {
    if (!request.action) return onDone(true);
    setBusy(true);
    setError(null);
    try {
      await request.action();
      onDone(true);
    } catch (err) {
      setError(refusalText(err, err instanceof Error && err.message ? err.message : request.failed ?? 'That did not work.'));
      setBusy(false);
    }
  };

  return (
    <dialog ref={dialog} className="card dialog confirm-dialog" role="alertdialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={request.detail ? detailId : undefined}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onDone(false);
      }}>
      <div className="dialog-form">
        <h2 id={titleId}>{request.title}</h2>
        {request.detail && <p id={detailId}>{request.detail}</p>}
        {error && <p className="form-error" role="alert">{error}</p>}
        <div className="actions">
          <button type="button" className={request.danger === false ? 'primary' : 'danger-solid'} disabled={busy} onClick={() => void confirm()}>
            {busy ? request.doing ?? `${request.confirm}…` : request.confirm}
          </button>
          <button type="button" ref={cancel} disabled={busy} onClick={() => onDone(false)}>Cancel</button>
        </div>
      </div>
    </dialog>
  );
}
