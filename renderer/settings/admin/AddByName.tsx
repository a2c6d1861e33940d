import { useState } from 'react';
import { useFormSubmit } from '../../api/useFormSubmit.js';
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

  const { saving, errors, submit } = useFormSubmit({ labels: { name: label }, failure: 'It could not be added.', stays: true }, async () => {
    await onAdd(name.trim());
    setName('');
  });

  return (
    <form className="add-by-name" aria-label={label} onSubmit={submit} noValidate>
      <FormField label={label} error={errors.name}>
        <input type="text" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={Boolean(errors.name)} />
      </FormField>
      <button type="submit" disabled={saving}>{saving ? 'Adding…' : button}</button>
      {errors._ && <p className="form-error" role="alert">{errors._}</p>}
    </form>
  );
}
