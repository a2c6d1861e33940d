/** What shows a form's errors, in order of preference: an invalid control, then the form's own message. */
const INVALID_CONTROL = '[aria-invalid="true"]:not(fieldset), fieldset[aria-invalid="true"] input, .field.invalid :is(input, select, textarea, button)';
const FORM_MESSAGE = '.form-error, .field-error';

/**
 * Brings a failed save's first error to the rep: focuses the first invalid
 * control in `root` (else the form's message) and scrolls it to the middle
 * of the view, so on a phone, where the error may be a screen above Save,
 * something visibly happens and a screen reader reads the field and its
 * error. Answers what it focused.
 */
export function focusFirstError(root: ParentNode): HTMLElement | null {
  const target = root.querySelector<HTMLElement>(INVALID_CONTROL) ?? root.querySelector<HTMLElement>(FORM_MESSAGE);
  if (!target) return null;
  if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
  target.scrollIntoView({ block: 'center', behavior: 'auto' });
  return target;
}
