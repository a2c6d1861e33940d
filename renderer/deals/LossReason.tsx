import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { Stage } from '../../shared/resources/deal.js';
import { api } from '../api/client.js';
import { useModalDialog } from '../commands/useModalDialog.js';
import { FormField } from '../forms/FormField.js';
import type { NamedOption } from '../leads/useNamedOptions.js';
import './dealDialogs.css';

/** What a move into a lost stage sends with `stage_id`: the reason chosen, none when the account keeps no reasons. */
export type LossAnswer = { loss_reason_id?: number };

interface Asking {
  question: string;
  stageName: string;
  reasons: NamedOption[];
  resolve(answer: LossAnswer | null): void;
}

/** The account's loss reasons, read when a deal is about to be lost (an admin may have added one since the page opened). */
async function lossReasons(): Promise<NamedOption[]> {
  try {
    const page = await api.list<NamedOption>('/v2/loss_reasons', { sort_by: 'name', per_page: 100 });
    return page.items.map((item) => item.data);
  } catch {
    // Unreadable reasons must not keep a deal from moving: the hub takes a lost deal without one.
    return [];
  }
}

/**
 * Asks why a deal was lost before it moves into a lost stage, whichever way
 * it goes there (its page, the board's menu, a drag, a bulk change). `ask`
 * answers what to send with the move, `{}` when there is nothing to ask (not
 * a lost stage, no reasons in the account), or null when the rep cancels: the
 * deal then stays where it is. `dialog` is the question, to render while
 * asked.
 */
export function useLossReason(): { ask(stage: Stage | undefined, question: string): Promise<LossAnswer | null>; dialog: ReactNode } {
  const [asking, setAsking] = useState<Asking | null>(null);
  const ask = async (stage: Stage | undefined, question: string): Promise<LossAnswer | null> => {
    if (stage?.category !== 'lost') return {};
    const reasons = await lossReasons();
    if (reasons.length === 0) return {};
    return new Promise((resolve) => setAsking({ question, stageName: stage.name, reasons, resolve }));
  };
  const finish = (answer: LossAnswer | null) => {
    asking?.resolve(answer);
    setAsking(null);
  };
  const dialog = asking && (
    <LossReasonDialog question={asking.question} stageName={asking.stageName} reasons={asking.reasons}
      onConfirm={(reasonId) => finish({ loss_reason_id: reasonId })} onCancel={() => finish(null)} />
  );
  return { ask, dialog };
}

interface DialogProps {
  /** "Why was Boardwalk Renewal lost?": the dialog's name. */
  question: string;
  stageName: string;
  reasons: NamedOption[];
  onConfirm(reasonId: number): void;
  onCancel(): void;
}

/** The question itself: a modal dialog with the "Reason" select; the move waits for its confirmation, and Cancel or Escape drops it. */
function LossReasonDialog({ question, stageName, reasons, onConfirm, onCancel }: DialogProps) {
  const dialog = useModalDialog();
  const titleId = useId();
  const [reasonId, setReasonId] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const confirm = (event: FormEvent) => {
    event.preventDefault();
    if (reasonId) onConfirm(Number(reasonId));
    else setError('Choose why the deal was lost.');
  };
  return (
    <dialog ref={dialog} className="card dialog" aria-labelledby={titleId} onCancel={(event) => {
      event.preventDefault();
      onCancel();
    }}>
      <form className="dialog-form loss-reason-form" onSubmit={confirm} noValidate>
        <h2 id={titleId}>{question}</h2>
        <p className="dialog-note">It moves to {stageName} once you say why.</p>
        <FormField label="Reason" error={error}>
          {/* Named "Reason" alone (a select inside its label would take the chosen option's text into its name too). */}
          <select aria-label="Reason" value={reasonId} onChange={(event) => {
            setReasonId(event.target.value);
            setError(undefined);
          }}>
            <option value="">Choose a reason…</option>
            {reasons.map((reason) => <option key={reason.id} value={reason.id}>{reason.name}</option>)}
          </select>
        </FormField>
        <div className="actions">
          <button type="submit" className="primary">Move to {stageName}</button>
          <button type="button" onClick={onCancel}>Cancel</button>
        </div>
      </form>
    </dialog>
  );
}
