import type { FormErrors } from './formErrors.js';

/** A form's own refusal before anything is sent (a value it cannot read): its errors by field, shown as the API's are. */
export class FormInputError extends Error {
  constructor(readonly errors: FormErrors) {
    super(Object.values(errors).join(' '));
  }
}

/** What a submit changes, and how the form words a failure. */
export interface SubmitSteps {
  setSaving(saving: boolean): void;
  setErrors(errors: FormErrors): void;
  errorsOf(err: unknown): FormErrors;
  /** After a failure's errors are set: bring the first of them into view (useFormSubmit focuses it once it shows). */
  showErrors?(): void;
  /**
   * The form stays after a success (it empties, or shows what was saved):
   * saving goes off and its errors are cleared. Without it the form is
   * leaving (it navigates, closes or is replaced) and stays disabled.
   */
  stays?: boolean;
}

/**
 * One submit: saving on, the action; a failure's errors in the form's words,
 * saving off and the first error brought into view; after a success, if the form stays, no errors and saving
 * off. Answers whether the action succeeded. (The state of `useFormSubmit`,
 * kept apart from React to be tested without a DOM.)
 */
export async function runSubmit(steps: SubmitSteps, action: () => Promise<unknown>): Promise<boolean> {
  steps.setSaving(true);
  try {
    await action();
  } catch (err) {
    steps.setErrors(err instanceof FormInputError ? err.errors : steps.errorsOf(err));
    steps.setSaving(false);
    steps.showErrors?.();
    return false;
  }
  if (steps.stays) {
    steps.setErrors({});
    steps.setSaving(false);
  }
  return true;
}
