import { useState } from 'react';
import { objectPath, supportApi } from '../api/supportClient.js';
import { FormField, FormMessage } from '../forms/FormField.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import type { CustomObject } from './types.js';

interface Draft {
  key: string;
  title: string;
  title_pluralized: string;
  description: string;
}

const FORM_LABELS = { key: 'Key', title: 'Title', title_pluralized: 'Plural title', description: 'Description' };

/** An edit starts from the values as written, so a `{{dc.…}}` placeholder is kept rather than replaced by its rendering. */
const draftOf = (object: CustomObject | null): Draft => ({
  key: object?.key ?? '',
  title: object?.raw_title ?? '',
  title_pluralized: object?.raw_title_pluralized ?? '',
  description: object?.raw_description ?? '',
});

/** Blank texts go as they are: the interface says which are required. The key is sent on create only. */
function payloadOf(draft: Draft, creating: boolean): Record<string, unknown> {
  const common = { title: draft.title.trim(), title_pluralized: draft.title_pluralized.trim(), description: draft.description.trim() || null };
  return { custom_object: creating ? { key: draft.key.trim(), ...common } : common };
}

/**
 * Create an object (key, titles, description) or edit one (the key stays:
 * it is the object's id in the interface and cannot change). The
 * interface's field errors show by their fields; anything else, such as the
 * plan's limit on objects, below the form.
 */
export function ObjectForm({ object, onSaved, onCancel }: { object: CustomObject | null; onSaved(object: CustomObject): void; onCancel?(): void }) {
  const creating = object === null;
  const [draft, setDraft] = useState<Draft>(() => draftOf(object));
  const [saved, setSaved] = useState(false);
  const change = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
    setSaved(false);
  };
  const title = creating ? 'New custom object' : 'Object details';

  const { saving, errors, submit } = useFormSubmit({ labels: FORM_LABELS, failure: 'The object could not be saved.', stays: true }, async () => {
    const answer = creating
      ? await supportApi.post<{ custom_object: CustomObject }>('/custom_objects', payloadOf(draft, true))
      : await supportApi.patch<{ custom_object: CustomObject }>(objectPath(object.key), payloadOf(draft, false));
    if (creating) setDraft(draftOf(null));
    else setSaved(true);
    onSaved(answer.custom_object);
  });

  return (
    <form className="card object-form" aria-label={title} onSubmit={submit} noValidate>
      <h2>{title}</h2>
      <div className="grid">
        <FormField label="Key *" error={errors.key}>
          {creating
            ? <input type="text" value={draft.key} placeholder="e.g. car" autoComplete="off" spellCheck={false}
                onChange={(e) => change({ key: e.target.value })} aria-invalid={Boolean(errors.key)} aria-describedby="object-key-hint" />
            : <input type="text" value={draft.key} readOnly aria-readonly="true" title="The key cannot change." />}
        </FormField>
        <FormField label="Title *" error={errors.title}>
          <input type="text" value={draft.title} placeholder="e.g. Car" onChange={(e) => change({ title: e.target.value })} aria-invalid={Boolean(errors.title)} />
        </FormField>
        <FormField label="Plural title *" error={errors.title_pluralized}>
          <input type="text" value={draft.title_pluralized} placeholder="e.g. Cars" onChange={(e) => change({ title_pluralized: e.target.value })}
            aria-invalid={Boolean(errors.title_pluralized)} />
        </FormField>
      </div>
      {creating && <p className="muted hint" id="object-key-hint">The key names the object in the API and cannot change later: lowercase letters, digits and underscores.</p>}
      <FormField label="Description" error={errors.description}>
        <textarea rows={2} value={draft.description} onChange={(e) => change({ description: e.target.value })} />
      </FormField>
      <FormMessage error={errors._} />
      <div className="actions">
        <button type="submit" className="primary" disabled={saving}>{saving ? 'Saving…' : creating ? 'Create object' : 'Save object'}</button>
        {onCancel && <button type="button" onClick={onCancel}>Cancel</button>}
        {saved && <span className="muted" role="status">Saved.</span>}
      </div>
    </form>
  );
}
