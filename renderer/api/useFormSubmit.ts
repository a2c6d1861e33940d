import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { formErrorsOf, shownErrorOf, withoutShown, type FieldLabels, type FieldOf, type FormErrors } from './formErrors.js';
import { runSubmit } from './formSubmit.js';
import { focusFirstError } from '../forms/firstError.js';

/**
 * How a form words a failed save: by its fields' labels (`formErrorsOf`,
 * with `failure` for a failure that is not the API's), or by a function of
 * its own (one message for the whole form, a field renamed).
 */
export type FailureWords =
  | { labels: FieldLabels; failure: string; fieldOf?: FieldOf }
  | { errorsOf(err: unknown): FormErrors };

export interface FormSubmitOptions {
  /** After a success the form stays: saving goes off and the errors are cleared (else saving stays on as the form leaves). */
  stays?: boolean;
}

export interface FormSubmit<A extends unknown[]> {
  saving: boolean;
  /** The failure's errors by field name, in the form's words; `_` what no field shows. */
  errors: FormErrors;
  /** Errors the form finds itself (before asking the API): shown as a failure's are, the first brought into view. */
  setErrors(errors: FormErrors): void;
  /**
   * Drops a field's error (nothing is focused). Changing a field whose error
   * shows drops it already (the rep's typing or picking in it); this is for
   * a field changed otherwise (a quick pick, a button).
   */
  clearError(field: string): void;
  /** Runs the action (saving on meanwhile); answers whether it succeeded. */
  run(...args: A): Promise<boolean>;
  /** A form's `onSubmit`: no page load, then `run`. */
  submit(event: FormEvent, ...args: A): void;
}

/**
 * The submit every form repeats: `saving` while the action runs; a failure's
 * errors in the form's words (see `FailureWords`), saving off, and the first
 * error focused and scrolled into view (on a phone it may be a screen above
 * Save); after a success, saving stays on as the form leaves, or with
 * `stays` goes off and the errors are cleared.
 *
 *     const { saving, errors, submit } = useFormSubmit({ labels, failure: 'The task could not be saved.' }, async () => {
 *       await api.create('/v2/tasks', payload);
 *       navigate('/tasks');
 *     });
 */
export function useFormSubmit<A extends unknown[] = []>(options: FailureWords & FormSubmitOptions, action: (...args: A) => Promise<unknown>): FormSubmit<A> {
  const [saving, setSaving] = useState(false);
  const [errors, setErrorsNow] = useState<FormErrors>({});
  // The form being saved (the one submitted, else the one holding the focus), and how many failures it has shown.
  const form = useRef<HTMLFormElement | null>(null);
  const [failures, setFailures] = useState(0);
  const showErrors = () => setFailures((n) => n + 1);

  useEffect(() => {
    // After the render that shows the errors: they are in the page to focus.
    if (failures > 0) focusFirstError(form.current?.isConnected ? form.current : document);
  }, [failures]);

  const errorsOf = 'errorsOf' in options ? options.errorsOf : (err: unknown) => formErrorsOf(err, options.labels, options.failure, options.fieldOf);
  const run = (...args: A) => {
    form.current ??= document.activeElement?.closest('form') ?? null;
    return runSubmit({ setSaving, setErrors: setErrorsNow, errorsOf, showErrors, stays: options.stays }, () => action(...args));
  };
  // Stable, as the state setter it stands for: forms list it among an effect's dependencies.
  const setErrors = useCallback((found: FormErrors) => {
    setErrorsNow(found);
    if (Object.keys(found).length > 0) setFailures((n) => n + 1);
  }, []);
  const clearError = useCallback((field: string) => {
    setErrorsNow((now) => {
      if (!(field in now)) return now;
      const { [field]: _dropped, ...rest } = now;
      return rest;
    });
  }, []);
  useClearedWhenChanged(errors, form, setErrorsNow);
  const submit = (event: FormEvent, ...args: A) => {
    event.preventDefault();
    if (event.currentTarget instanceof HTMLFormElement) form.current = event.currentTarget;
    void run(...args);
  };
  return { saving, errors, setErrors, clearError, run, submit };
}

/**
 * A field's error goes as soon as the rep changes that field (types, picks,
 * ticks: the control's input or change event), wherever the form shows it:
 * what was refused is no longer there, and an error left standing beside a
 * corrected value reads as if the correction were wrong too. Listens on the
 * form being saved (else the page) while any field shows an error.
 */
function useClearedWhenChanged(errors: FormErrors, form: { current: HTMLFormElement | null }, setErrors: (change: (now: FormErrors) => FormErrors) => void): void {
  const showsFieldErrors = Object.keys(errors).some((field) => field !== '_');
  useEffect(() => {
    if (!showsFieldErrors) return;
    const root: ParentNode = form.current?.isConnected ? form.current : document;
    const changed = (event: Event) => {
      if (!(event.target instanceof Node) || !root.contains(event.target)) return;
      const shown = shownErrorOf(event.target, root);
      if (shown) setErrors((now) => withoutShown(now, shown));
    };
    // On the document, so React has taken the change first: a render before its onChange would put the old value back.
    document.addEventListener('input', changed);
    document.addEventListener('change', changed);
    return () => {
      document.removeEventListener('input', changed);
      document.removeEventListener('change', changed);
    };
  }, [showsFieldErrors, form, setErrors]);
}
