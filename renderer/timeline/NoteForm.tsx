import { useState, type FormEvent } from 'react';
import { api } from '../api/client.js';
import { formErrorsOf } from '../api/formErrors.js';

/** Add a note inline; "Private" makes it a restricted note only its author can see. */
export function NoteForm({ resource, onSaved }: { resource: { type: string; id: number }; onSaved(): void }) {
  const [content, setContent] = useState('');
  const [restricted, setRestricted] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await api.create('/v2/notes', { resource_type: resource.type, resource_id: resource.id, content, type: restricted ? 'restricted' : 'regular' });
      setContent('');
      setRestricted(false);
      setError(null);
      onSaved();
    } catch (err) {
      const errors = formErrorsOf(err, { content: 'Note' }, 'The note could not be saved.');
      setError(errors.content ?? errors._);
    }
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="New note">
      <label className="grow">
        Note
        <textarea value={content} onChange={(e) => setContent(e.target.value)} placeholder="Write a note" aria-invalid={Boolean(error)} />
        {error && <span className="field-error" role="alert">{error}</span>}
      </label>
      <label className="check"><input type="checkbox" checked={restricted} onChange={(e) => setRestricted(e.target.checked)} /> Private</label>
      <button type="submit" className="primary">Add note</button>
    </form>
  );
}
