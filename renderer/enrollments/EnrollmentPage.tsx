import { useEffect, type ReactNode } from 'react';
import { api } from '../api/client.js';
import { Link } from '../router/Link.js';
import { useUsers } from '../collaborators/useUsers.js';
import { DetailRow, RecordProblemMessage } from '../leads/Details.js';
import { useRecord } from '../leads/useRecord.js';
import { formatWhen } from '../tasks/taskDates.js';
import { actionText, delayText } from '../sequences/stepText.js';
import { useTemplateNames } from '../sequences/useTemplateNames.js';
import type { EnrollmentState, EnrollmentStep, SequenceEnrollment } from '../../shared/resources/sequence.js';
import { StateBadge } from './EnrollmentsScreen.js';
import { enrolledKey, useEnrolledNames } from './useEnrolledNames.js';
import { enrolledPath, FAILURE_TEXT, progressText } from './enrollmentText.js';
import { capitalized, humanized } from '../shell/words.js';
import { refusalText } from '../api/formErrors.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { askToConfirm, type ConfirmRequest } from '../shell/ConfirmDialog.js';

/** The moves a person can make (spec: active → finished by hand, blocked → active to resume). */
const MOVES: Partial<Record<EnrollmentState, { to: EnrollmentState; label: string; confirm?: ConfirmRequest }>> = {
  active: { to: 'finished', label: 'Finish', confirm: { title: 'Finish this enrollment?', detail: 'Its pending steps are cancelled.', confirm: 'Finish' } },
  blocked: { to: 'active', label: 'Resume' },
};

/** How often an open enrollment page reads the enrollment again, so it follows the scheduler (which ticks every 15 s on a hub). */
const FOLLOW_MS = 5_000;

/** One enrollment: its steps as a timeline with each action's status and times, and Finish or Resume. */
export function EnrollmentPage({ id }: { id: number }) {
  const { record: enrollment, problem, setRecord, reload } = useRecord<SequenceEnrollment>(`/v2/sequence_enrollments/${id}`);
  const running = enrollment !== null && enrollment.state !== 'finished';
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(reload, FOLLOW_MS);
    return () => clearInterval(timer);
  }, [running, reload]);
  const users = useUsers();
  const names = useEnrolledNames(enrollment ? [enrollment] : []);
  const { templateName } = useTemplateNames();
  const { saving, errors, run } = useFormSubmit({ errorsOf: (err) => ({ _: refusalText(err, 'The enrollment could not be changed.') }), stays: true },
    async (to: EnrollmentState) => setRecord(await api.update<SequenceEnrollment>(`/v2/sequence_enrollments/${id}`, { state: to })));

  if (problem) return <RecordProblemMessage problem={problem} noun="enrollment" listPath="/enrollments" />;
  if (!enrollment) return <section className="screen"><p className="muted">Loading…</p></section>;

  const move = MOVES[enrollment.state];
  const changeState = async () => {
    if (!move || (move.confirm && !(await askToConfirm(move.confirm)))) return;
    void run(move.to);
  };

  const userName = (userId: number | null) => users.find((u) => u.id === userId)?.name ?? (userId === null ? '—' : 'A former user');
  const enrolled = names.get(enrolledKey(enrollment.resource_type, enrollment.resource_id)) ?? `the ${enrollment.resource_type}`;
  const enrolledLink = <Link to={enrolledPath(enrollment.resource_type, enrollment.resource_id)}>{enrolled}</Link>;
  return (
    <section className="screen record-page enrollment-page">
      <header className="screen-header">
        <div>
          <p className="muted"><Link to="/enrollments">Enrollments</Link> · {capitalized(enrollment.resource_type)} {enrolledLink}</p>
          <h1>{enrollment.sequence.data.name}</h1>
          <StateBadge enrollment={enrollment} /> <span className="muted">{progressText(enrollment)}</span>
        </div>
        {move && (
          <div className="actions">
            <button type="button" className={move.to === 'finished' ? 'danger' : 'primary'} disabled={saving} onClick={() => void changeState()}>{move.label}</button>
          </div>
        )}
      </header>
      {errors._ && <p className="form-error" role="alert">{errors._}</p>}
      {enrollment.state === 'blocked' && <p className="notice" role="note">A step could not run (see its reason below). Fix the cause, then resume.</p>}
      <dl className="card details">
        <DetailRow label="Sent and created as">{userName(enrollment.actor_id)}</DetailRow>
        <DetailRow label="Started">{formatWhen(enrollment.created_at)}</DetailRow>
        {enrollment.finished_at && <DetailRow label="Finished">{formatWhen(enrollment.finished_at)}</DetailRow>}
        {enrollment.finished_reason && <DetailRow label="Why it finished">{humanized(enrollment.finished_reason)}</DetailRow>}
        {enrollment.finished_actor_id !== null && <DetailRow label="Finished by">{userName(enrollment.finished_actor_id)}</DetailRow>}
      </dl>
      <ol className="card step-timeline" aria-label="Steps">
        {enrollment.enrollment_steps.items.map(({ data: step }) => (
          <StepEntry key={step.position} step={step} current={enrollment.state !== 'finished' && step.position === enrollment.current_step_position}
            what={actionText(step, templateName)} enrolled={enrolledLink} />
        ))}
      </ol>
    </section>
  );
}

interface StepEntryProps {
  step: EnrollmentStep;
  current: boolean;
  what: string;
  /** A link to the enrolled record, whose timeline lists the step's task. */
  enrolled: ReactNode;
}

function StepEntry({ step, current, what, enrolled }: StepEntryProps) {
  const action = step.action.data;
  return (
    <li className={`step-entry status-${action.status}${current ? ' current' : ''}`} aria-label={`Step ${step.position + 1}`} aria-current={current ? 'step' : undefined}>
      <div className="step-head">
        <strong>Step {step.position + 1}</strong> <span className="muted">{delayText(step.delay_from_previous_step, step.delay_from_previous_step_unit)}</span>
        <span className={`badge action-${action.status}`}>{humanized(action.status)}</span>
        {step.overdue && <span className="badge overdue">Overdue</span>}
      </div>
      <div>{what}</div>
      <dl className="step-times">
        {action.estimated_execute_at && <DetailRow label="Due">{formatWhen(action.estimated_execute_at)}</DetailRow>}
        {action.executed_at && <DetailRow label="Executed">{formatWhen(action.executed_at)}</DetailRow>}
        {action.failure_reason && <DetailRow label="Why it failed"><span className="failure">{FAILURE_TEXT[action.failure_reason]}</span></DetailRow>}
        {action.task_id != null && <DetailRow label="Task">On the timeline of {enrolled}</DetailRow>}
      </dl>
    </li>
  );
}
