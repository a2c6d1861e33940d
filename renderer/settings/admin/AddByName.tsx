import { useState, type FormEvent } from 'react';
import { formErrorsOf, type FormErrors } from '../../api/formErrors.js';
import { FormField } from '../../leads/FormField.js';

interface Props {
  /** The field's label ("New lead source"). */
  label: string;
  /** The button's words ("Add source"). */
  button: string;
  onAdd(name: string): Promise<void>;
}

/** Adds an entry by its name: the field is emptied on success and keeps the text, with the API's words by it, on a refusal. */
export function AddByName({ label, button, onAdd }: Props) {
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      await onAdd(name.trim());
      setName('');
      setErrors({});
    } catch (err) {
      setErrors(formErrorsOf(err, { name: label }, 'It could not be added.'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="add-by-name" aria-label={label} onSubmit={(e) => void submit(e)} noValidate>
      <FormField label={label} error={errors.name}>
        <input type="text" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={Boolean(errors.name)} />
      </FormField>
      <button type="submit" disabled={saving}>{saving ? 'Adding…' : button}</button>
      {errors._ && <p className="form-error" role="alert">{errors._}</p>}
    </form>
  );
}
