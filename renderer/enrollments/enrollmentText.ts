import type { EnrollmentResourceType, FailureReason, SequenceEnrollment } from '../../shared/resources/sequence.js';

/** The app's page of the enrolled lead or contact. */
export const enrolledPath = (type: EnrollmentResourceType, id: number) => (type === 'lead' ? `/leads/${id}` : `/contacts/${id}`);

/** "Step 2 of 3", or "3 of 3 steps" once finished; positions are zero-based in the API. */
export function progressText(enrollment: SequenceEnrollment): string {
  const total = enrollment.sequence.data.steps_total;
  if (enrollment.state === 'finished') return `${enrollment.enrollment_steps.items.filter((s) => s.data.action.data.status === 'completed').length} of ${total} steps done`;
  return `Step ${Math.min(enrollment.current_step_position + 1, total)} of ${total}`;
}

/** Why an email step could not be sent, in words a rep can act on (the API's codes are for programs). */
export const FAILURE_TEXT: Record<FailureReason, string> = {
  unknown: 'Something went wrong while sending.',
  sendout_limited: 'The daily sending limit was reached.',
  recipient_invalid: 'The recipient\'s email address is not valid.',
  auth: 'The mail server refused to sign in.',
  missing_merge_tags: 'A merge tag in the template has no value for this recipient.',
  attachment_limit_exceeded: 'The attachments are too large to send.',
  sendout_disabled: 'Sending emails is turned off: no mail server is set up.',
  quota_exceeded: 'The account\'s email quota is used up.',
};
