import { useState } from 'react';
import { api } from '../api/client.js';
import { Link } from '../router/Link.js';
import { useRouter } from '../router/routerStore.js';
import { useSession } from '../session/sessionStore.js';
import { useUsers } from '../collaborators/useUsers.js';
import { DetailRow, RecordProblemMessage } from '../leads/Details.js';
import { useRecord } from '../leads/useRecord.js';
import { actionText, delayText, unsubscribeText } from './stepText.js';
import { useTemplateNames } from './useTemplateNames.js';
import type { Sequence } from '../../shared/resources/sequence.js';
import { refusalText } from '../api/formErrors.js';
import { NoMailServerWarning } from './NoMailServerWarning.js';
import { askToConfirm } from '../shell/ConfirmDialog.js';

/** One sequence and its steps in order; admins edit or delete it from here. */
export function SequencePage({ id }: { id: number }) {
  const navigate = useRouter((s) => s.navigate);
  const isAdmin = useSession((s) => s.user?.role === 'admin');
  const { record: sequence, problem } = useRecord<Sequence>(`/v2/sequences/${id}`);
  const { templateName } = useTemplateNames();
  const users = useUsers();
  const [actionError, setActionError] = useState<string | null>(null);

  if (problem) return <RecordProblemMessage problem={problem} noun="sequence" listPath="/sequences" />;
  if (!sequence) return <section className="screen"><p className="muted">Loading…</p></section>;

  const remove = async () => {
    if (!(await askToConfirm({ title: `Delete the sequence ${sequence.name}?`, confirm: 'Delete' }))) return;
    try {
      await api.remove(`/v2/sequences/${id}`);
      navigate('/sequences');
    } catch (err) {
      setActionError(refusalText(err, 'The sequence could not be deleted.'));
    }
  };

  return (
    <section className="screen record-page sequence-page">
      <header className="screen-header">
        <div>
          <p className="muted"><Link to="/sequences">Sequences</Link></p>
          <h1>{sequence.name}</h1>
        </div>
        {isAdmin && (
          <div className="actions">
            <Link to={`/sequences/${id}/edit`} className="button primary">Edit</Link>
            <button type="button" className="danger" onClick={() => void remove()}>Delete</button>
          </div>
        )}
      </header>
      {actionError && <p className="form-error" role="alert">{actionError}</p>}
      <NoMailServerWarning steps={sequence.steps} />
      <dl className="card details">
        <DetailRow label="Steps">{sequence.steps_total}</DetailRow>
        <DetailRow label="Unsubscribe link">{unsubscribeText(sequence)}</DetailRow>
        <DetailRow label="Created by">{users.find((u) => u.id === sequence.creator_id)?.name ?? '—'}</DetailRow>
      </dl>
      <ol className="card step-list" aria-label="Steps">
        {sequence.steps.map((step) => (
          <li key={step.position}>
            <span className="muted">{delayText(step.delay_from_previous_step, step.delay_from_previous_step_unit)}</span>{' '}
            {actionText(step, templateName)}
          </li>
        ))}
      </ol>
    </section>
  );
}
