import { useState } from 'react';
import { api } from '../api/client.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { FormField, FormMessage } from '../forms/FormField.js';

/** Add a note inline; "Private" makes it a restricted note only its author can see. */
export function NoteForm({ resource, onSaved }: { resource: { type: string; id: number }; onSaved(): void }) {
  const [content, setContent] = useState('');
  const [restricted, setRestricted] = useState(false);
  const { saving, errors, submit } = useFormSubmit({ labels: { content: 'Note' }, failure: 'The note could not be saved.', stays: true }, async () => {
    await api.create('/v2/notes', { resource_type: resource.type, resource_id: resource.id, content, type: restricted ? 'restricted' : 'regular' });
    setContent('');
    setRestricted(false);
    onSaved();
  });
  return (
    <form className="inline-form" onSubmit={submit} aria-label="New note" noValidate>
      <FormField label="Note" error={errors.content} className="grow">
        <textarea value={content} onChange={(e) => setContent(e.target.value)} placeholder="Write a note" />
      </FormField>
      <label className="check"><input type="checkbox" checked={restricted} onChange={(e) => setRestricted(e.target.checked)} /> Private</label>
      <button type="submit" className="primary" disabled={saving}>Add note</button>
      <FormMessage error={errors._} />
    </form>
  );
}
