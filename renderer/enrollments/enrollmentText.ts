import type { EnrollmentResourceType, SequenceEnrollment } from '../../shared/resources/sequence.js';

/** The app's page of the enrolled lead or contact. */
export const enrolledPath = (type: EnrollmentResourceType, id: number) => (type === 'lead' ? `/leads/${id}` : `/contacts/${id}`);

/** "Step 2 of 3", or "3 of 3 steps" once finished; positions are zero-based in the API. */
export function progressText(enrollment: SequenceEnrollment): string {
  const total = enrollment.sequence.data.steps_total;
  if (enrollment.state === 'finished') return `${enrollment.enrollment_steps.items.filter((s) => s.data.action.data.status === 'completed').length} of ${total} steps done`;
  return `Step ${Math.min(enrollment.current_step_position + 1, total)} of ${total}`;
}
