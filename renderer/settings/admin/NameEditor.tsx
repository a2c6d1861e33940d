import { useEffect, useRef, useState } from 'react';
import { useFormSubmit } from '../../api/useFormSubmit.js';
import { FormField } from '../../leads/FormField.js';

interface Props {
  /** The field's label ("Stage name"), also what API messages about `name` are called. */
  label: string;
  /** What is renamed, for the buttons' accessible names ("stage Quote"). */
  what: string;
  value: string;
  onSave(name: string): Promise<void>;
  onDone(): void;
}

/** Renames something in place: a text field, Save and Cancel, the API's refusal by the field. */
export function NameEditor({ label, what, value, onSave, onDone }: Props) {
  const [name, setName] = useState(value);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.select(), []);

  const { saving, errors, submit } = useFormSubmit({ labels: { name: label }, failure: `The ${what} could not be renamed.` }, async () => {
    await onSave(name.trim());
    onDone();
  });

  return (
    <form className="name-editor" aria-label={`Rename ${what}`} onSubmit={submit} noValidate>
      <FormField label={label} error={errors.name}>
        <input ref={input} type="text" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={Boolean(errors.name)}
          onKeyDown={(e) => e.key === 'Escape' && onDone()} />
      </FormField>
      <div className="actions">
        <button type="submit" className="primary" disabled={saving}>{saving ? 'Saving…' : 'Save'}</button>
        <button type="button" onClick={onDone}>Cancel</button>
      </div>
      {errors._ && <p className="form-error" role="alert">{errors._}</p>}
    </form>
  );
}
