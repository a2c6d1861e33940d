import { Children, cloneElement, isValidElement, useEffect, useId, useRef, useState, type ReactElement, type ReactNode } from 'react';
import './forms.css';

/** Components that take the field's aria-invalid and aria-describedby as an input does (AmountInput). */
export interface FormControlMark {
  formControl?: true;
}

interface FieldProps {
  label: string;
  /** The refusal of the field, in a rep's words: marks the control invalid and is announced. */
  error?: string;
  /**
   * What looks wrong in what was typed, though it may be saved (an email
   * without an @): shown once the rep has left the field, then as they type,
   * or at once with `live`.
   */
  warning?: string | null;
  live?: boolean;
  /** Shown after the label and its control, outside the label (the quick picks of a date). */
  after?: ReactNode;
  className?: string;
  children: ReactNode;
}

/**
 * How long after the rep leaves a field its warning appears: after the click
 * that left it is over, so the warning's line, pushing what is below down,
 * never moves Save from under a press (the press would miss it).
 */
const WARNING_AFTER_LEAVING_MS = 250;

const CONTROL_TAGS = new Set(['input', 'select', 'textarea']);

const isControl = (child: ReactElement) => (typeof child.type === 'string' ? CONTROL_TAGS.has(child.type) : Boolean((child.type as FormControlMark).formControl));

/** The control among `children` marked invalid (as it says, or by the field's error) and described by the field's message. */
function described(children: ReactNode, invalid: boolean, describedBy: string | undefined): ReactNode {
  return Children.map(children, (child) => {
    if (!isValidElement<Record<string, unknown>>(child) || !isControl(child)) return child;
    const own = child.props['aria-describedby'];
    const ids = [typeof own === 'string' ? own : null, describedBy].filter(Boolean).join(' ');
    return cloneElement(child, { 'aria-invalid': invalid || child.props['aria-invalid'] === true, 'aria-describedby': ids || undefined });
  });
}

/**
 * A labelled form control with its message underneath: the API's refusal
 * (announced, the control marked invalid and described by it) or a warning
 * about what was typed. Every form's fields are one, so a failed save can
 * find and focus the first invalid control (useFormSubmit).
 */
export function FormField({ label, error, warning, live, after, className, children }: FieldProps) {
  const id = useId();
  const [left, setLeft] = useState(false);
  const leaving = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(leaving.current), []);
  const leave = () => {
    if (left || !warning) return;
    clearTimeout(leaving.current);
    leaving.current = setTimeout(() => setLeft(true), WARNING_AFTER_LEAVING_MS);
  };
  const shownWarning = !error && warning && (live || left) ? warning : null;
  const describedBy = error ? `${id}-error` : shownWarning ? `${id}-warning` : undefined;
  return (
    <div className={['field', error && 'invalid', shownWarning && 'warned', className].filter(Boolean).join(' ')} onBlur={leave}>
      <label>
        {label}
        {described(children, Boolean(error), describedBy)}
      </label>
      {after}
      {error && <span id={`${id}-error`} className="field-error" role="alert">{error}</span>}
      {shownWarning && <span id={`${id}-warning`} className="field-warning" role="status">{shownWarning}</span>}
    </div>
  );
}

/** The message of a whole form (what no field shows): announced, and focusable so a failed save can bring it into view. */
export function FormMessage({ error }: { error?: string }) {
  return error ? <p className="form-error" role="alert" tabIndex={-1}>{error}</p> : null;
}

/** The end of a record form: the API's message, Save and Cancel. */
export function FormActions({ error, saving }: { error?: string; saving: boolean }) {
  return (
    <>
      <FormMessage error={error} />
      <div className="actions">
        <button type="submit" className="primary" disabled={saving}>{saving ? 'Saving…' : 'Save'}</button>
        <button type="button" onClick={() => window.history.back()}>Cancel</button>
      </div>
    </>
  );
}
