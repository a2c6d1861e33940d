/**
 * Sequences, their email templates and sequence enrollments, as
 * the API serves them: the spec's field tables, for the renderer and the engine.
 */

export const DELAY_UNITS = ['hours', 'weekdays'] as const;
/** `weekdays` counts Monday to Friday only. */
export type DelayUnit = (typeof DELAY_UNITS)[number];

export const ACTION_TYPES = ['automated_email', 'task'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export type EmailActionProperties = { email_template_id: number; is_reply: boolean };
export type TaskActionProperties = { task_content: string };
export type ActionProperties = EmailActionProperties | TaskActionProperties;

export interface UnsubscribeSettings {
  enabled: boolean;
  locale: string;
}

/** One step of a sequence; `position` is zero-based and follows the order of `steps`. */
export interface SequenceStep {
  position: number;
  /** The first step's delay counts from the start of the enrollment. */
  delay_from_previous_step: number;
  delay_from_previous_step_unit: DelayUnit;
  action_type: ActionType;
  action_properties: ActionProperties;
}

export interface Sequence {
  id: number;
  name: string;
  creator_id: number | null;
  steps_total: number;
  unsubscribe_settings: UnsubscribeSettings;
  steps: SequenceStep[];
  created_at: string;
  updated_at: string;
}

/** The sequence as an enrollment shows it (`meta.type` = `sequence`): without its steps. */
export type EnrollmentSequence = Omit<Sequence, 'steps'>;

/** Merge tags such as `{{contact.first_name}}` or `{{user.name}}` may appear in the subject and the body. */
export interface EmailTemplate {
  id: number;
  name: string;
  subject: string;
  body: string;
  creator_id: number | null;
  created_at: string;
  updated_at: string;
}

export const ENROLLMENT_RESOURCE_TYPES = ['lead', 'contact'] as const;
export type EnrollmentResourceType = (typeof ENROLLMENT_RESOURCE_TYPES)[number];

export const ENROLLMENT_STATES = ['active', 'blocked', 'finished'] as const;
export type EnrollmentState = (typeof ENROLLMENT_STATES)[number];

export const FINISHED_REASONS = ['manual', 'all_steps_completed', 'replied_to_email', 'resource_deleted', 'subscription_cancelled', 'task_deleted'] as const;
export type FinishedReason = (typeof FINISHED_REASONS)[number];

/** Email: scheduled, in_progress, completed, blocked, cancelled. Task: scheduled, in_progress, completed, cancelled. */
export const ACTION_STATUSES = ['scheduled', 'in_progress', 'completed', 'blocked', 'cancelled'] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

export const FAILURE_REASONS = [
  'unknown', 'sendout_limited', 'recipient_invalid', 'auth', 'missing_merge_tags', 'attachment_limit_exceeded', 'sendout_disabled', 'quota_exceeded',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** Action data (`meta.type` = `action`): `task_content` for tasks, `task_id` once the task exists (in_progress, completed). */
export interface EnrollmentAction {
  status: ActionStatus;
  executed_at: string | null;
  estimated_execute_at: string | null;
  failure_reason: FailureReason | null;
  task_content?: string;
  task_id?: number | null;
}

interface Envelope<T, Type extends string> {
  data: T;
  meta: { type: Type };
}

/** A step copied from the sequence when the enrollment started (`meta.type` = `enrollment_step`). */
export interface EnrollmentStep {
  position: number;
  delay_from_previous_step: number;
  delay_from_previous_step_unit: DelayUnit;
  overdue: boolean;
  action_type: ActionType;
  action_properties: ActionProperties;
  action: Envelope<EnrollmentAction, 'action'>;
}

export interface SequenceEnrollment {
  id: number;
  /** The user on whose behalf emails are sent and tasks created. */
  actor_id: number;
  resource_id: number;
  resource_type: EnrollmentResourceType;
  sequence: Envelope<EnrollmentSequence, 'sequence'>;
  state: EnrollmentState;
  current_step_position: number;
  enrollment_steps: { items: Envelope<EnrollmentStep, 'enrollment_step'>[]; meta: { type: 'collection'; count?: number } };
  finished_at: string | null;
  finished_reason: FinishedReason | null;
  /** Only for manually finished enrollments. */
  finished_actor_id: number | null;
  created_at: string;
  updated_at: string;
}
