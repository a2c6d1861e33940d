import { useState } from 'react';
import type { Note } from '../../shared/resources/note.js';
import { api } from '../api/client.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { FormField, FormMessage } from '../forms/FormField.js';

interface Props {
  resource: { type: string; id: number };
  onSaved(): void;
  /** The note being corrected in place (else a new one is added). */
  editing?: Note;
  /** Leaves the correction unsaved. */
  onCancel?(): void;
}

/** Add a note inline, or correct one in place; "Private" makes it a restricted note only its author can see. */
export function NoteForm({ resource, onSaved, editing, onCancel }: Props) {
  const [content, setContent] = useState(editing?.content ?? '');
  const [restricted, setRestricted] = useState(editing?.type === 'restricted');
  const { saving, errors, clearError, submit } = useFormSubmit({ labels: { content: 'Note' }, failure: 'The note could not be saved.', stays: true }, async () => {
    const type = restricted ? 'restricted' : 'regular';
    if (editing) {
      await api.update(`/v2/notes/${editing.id}`, { content, type });
    } else {
      await api.create('/v2/notes', { resource_type: resource.type, resource_id: resource.id, content, type });
      setContent('');
      setRestricted(false);
    }
    onSaved();
  });
  return (
    <form className="inline-form" onSubmit={submit} aria-label={editing ? 'Edit the note' : 'New note'} noValidate>
      <FormField label="Note" error={errors.content} className="grow">
        <textarea value={content} onChange={(e) => (setContent(e.target.value), clearError('content'))} placeholder="Write a note" />
      </FormField>
      <label className="check"><input type="checkbox" checked={restricted} onChange={(e) => setRestricted(e.target.checked)} /> Private</label>
      <button type="submit" className="primary" disabled={saving}>{editing ? 'Save' : 'Add note'}</button>
      {onCancel && <button type="button" onClick={onCancel}>Cancel</button>}
      <FormMessage error={errors._} />
    </form>
  );
}
