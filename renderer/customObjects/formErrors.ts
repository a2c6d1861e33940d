import { SupportFailure } from '../api/supportClient.js';

/** A form's errors by field name; `_` holds what no field of the form shows (the plan's limit on `base`, a refusal). */
export type FormErrors = Record<string, string>;

/**
 * Splits a refusal between the form's fields and the message below it:
 * problems with fields the form has go by them, every other problem (on
 * `base`, or a field the form does not show) below the form, and a refusal
 * without details (403, 404) shows its description there.
 */
export function errorsOf(err: unknown, formFields: readonly string[], fallback: string, fieldOf: (name: string) => string = (name) => name): FormErrors {
  if (!(err instanceof SupportFailure)) return { _: fallback };
  const errors: FormErrors = {};
  const others: string[] = [];
  for (const [name, message] of Object.entries(err.fieldErrors)) {
    const field = fieldOf(name);
    if (formFields.includes(field)) errors[field] = errors[field] ? `${errors[field]} ${message}` : message;
    else others.push(message);
  }
  if (others.length > 0) errors._ = others.join(' ');
  else if (Object.keys(errors).length === 0) errors._ = err.message;
  return errors;
}
