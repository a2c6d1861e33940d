import type { ActionProperties, DelayUnit, Sequence, SequenceStep } from '../../shared/resources/sequence.js';

/** "right away", "after 1 hour", "after 3 weekdays" (weekdays skip Saturday and Sunday). */
export function delayText(delay: number, unit: DelayUnit): string {
  if (delay === 0) return 'right away';
  const noun = unit === 'hours' ? 'hour' : 'weekday';
  return `after ${delay} ${noun}${delay === 1 ? '' : 's'}`;
}

/** What a step does, naming its template when it is known: "Email “Intro”" or "Task: Call them". */
export function actionText(step: Pick<SequenceStep, 'action_type'> & { action_properties: ActionProperties }, templateName: (id: number) => string | undefined): string {
  const props = step.action_properties;
  if ('task_content' in props) return `Task: ${props.task_content}`;
  const name = templateName(props.email_template_id) ?? 'a template that no longer exists';
  return `${props.is_reply ? 'Reply email' : 'Email'} “${name}”`;
}

/** "On (en)" or "Off": whether emails carry an unsubscribe link, and in which language. */
export function unsubscribeText(sequence: Pick<Sequence, 'unsubscribe_settings'>): string {
  const { enabled, locale } = sequence.unsubscribe_settings;
  return enabled ? `On (${locale})` : 'Off';
}
