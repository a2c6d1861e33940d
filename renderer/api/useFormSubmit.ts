import { useState, type FormEvent } from 'react';
import { formErrorsOf, type FieldLabels, type FormErrors } from './formErrors.js';
import { runSubmit } from './formSubmit.js';

/**
 * How a form words a failed save: by its fields' labels (`formErrorsOf`,
 * with `failure` for a failure that is not the API's), or by a function of
 * its own (one message for the whole form, a field renamed).
 */
export type FailureWords =
  | { labels: FieldLabels; failure: string; fieldOf?(name: string): string }
  | { errorsOf(err: unknown): FormErrors };

export interface FormSubmitOptions {
  /** After a success the form stays: saving goes off and the errors are cleared (else saving stays on as the form leaves). */
  stays?: boolean;
}

export interface FormSubmit<A extends unknown[]> {
  saving: boolean;
  /** The failure's errors by field name, in the form's words; `_` what no field shows. */
  errors: FormErrors;
  setErrors(errors: FormErrors): void;
  /** Runs the action (saving on meanwhile); answers whether it succeeded. */
  run(...args: A): Promise<boolean>;
  /** A form's `onSubmit`: no page load, then `run`. */
  submit(event: FormEvent, ...args: A): void;
}

/**
 * The submit every form repeats: `saving` while the action runs; a failure's
 * errors in the form's words (see `FailureWords`) and saving off; after a
 * success, saving stays on as the form leaves, or with `stays` goes off and
 * the errors are cleared.
 *
 *     const { saving, errors, submit } = useFormSubmit({ labels, failure: 'The task could not be saved.' }, async () => {
 *       await api.create('/v2/tasks', payload);
 *       navigate('/tasks');
 *     });
 */
export function useFormSubmit<A extends unknown[] = []>(options: FailureWords & FormSubmitOptions, action: (...args: A) => Promise<unknown>): FormSubmit<A> {
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<FormErrors>({});
  const errorsOf = 'errorsOf' in options ? options.errorsOf : (err: unknown) => formErrorsOf(err, options.labels, options.failure, options.fieldOf);
  const run = (...args: A) => runSubmit({ setSaving, setErrors, errorsOf, stays: options.stays }, () => action(...args));
  const submit = (event: FormEvent, ...args: A) => {
    event.preventDefault();
    void run(...args);
  };
  return { saving, errors, setErrors, run, submit };
}
