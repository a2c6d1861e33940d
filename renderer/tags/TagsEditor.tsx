import { useEffect, useId, useState, type FormEvent } from 'react';
import { api } from '../api/client.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { RecordSection } from '../records/RecordSection.js';

export type TaggableType = 'contact' | 'lead' | 'deal';

interface Tag {
  id: number;
  name: string;
  resource_type: TaggableType;
}

/** The tag names already used on this kind of record, as suggestions. */
function useTagNames(resourceType: TaggableType, version: number): string[] {
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    api.list<Tag>('/v2/tags', { resource_type: resourceType, sort_by: 'name', per_page: 100 })
      .then((page) => live && setNames(page.items.map((i) => i.data.name)), () => undefined);
    return () => {
      live = false;
    };
  }, [resourceType, version]);
  return names;
}

interface Props<T extends { tags: string[] }> {
  resourceType: TaggableType;
  /** The record's API path (`/v2/leads/7`): tags are saved by PUTting its whole `tags` array, as the API wants. */
  path: string;
  tags: string[];
  /** Called with the record the API answered, so the page shows what was saved. */
  onSaved(record: T): void;
}

/** Adds and removes a record's tags, suggesting the names the account already uses. */
export function TagsEditor<T extends { tags: string[] }>({ resourceType, path, tags, onSaved }: Props<T>) {
  const [text, setText] = useState('');
  const [version, setVersion] = useState(0);
  const suggestions = useTagNames(resourceType, version).filter((name) => !tags.includes(name));
  const listId = useId();

  const { saving, errors, run: save } = useFormSubmit({ labels: { tags: 'Tags' }, failure: 'The tags could not be saved.', stays: true }, async (next: string[]) => {
    onSaved(await api.update<T>(path, { tags: next }));
    setVersion((v) => v + 1);
  });
  const error = errors.tags ?? errors._;

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const name = text.trim();
    if (!name) return;
    if (tags.includes(name)) return setText('');
    if (await save([...tags, name])) setText('');
  };

  return (
    <RecordSection title="Tags" count={tags.length} className="tags-editor">
      {tags.length === 0 ? <p className="muted">No tags.</p> : (
        <ul className="badges" aria-label="Current tags">
          {tags.map((tag) => (
            <li key={tag} className="badge tag">
              {tag}
              <button type="button" className="remove" aria-label={`Remove tag ${tag}`} disabled={saving}
                onClick={() => void save(tags.filter((t) => t !== tag))}>×</button>
            </li>
          ))}
        </ul>
      )}
      <form className="inline-form" onSubmit={add} aria-label="Add tag">
        <label className="grow">
          New tag
          <input type="text" list={listId} value={text} onChange={(e) => setText(e.target.value)} aria-invalid={Boolean(error)} />
        </label>
        <datalist id={listId}>{suggestions.map((name) => <option key={name} value={name} />)}</datalist>
        <button type="submit" disabled={saving || !text.trim()}>Add tag</button>
      </form>
      {error && <p className="form-error" role="alert">{error}</p>}
    </RecordSection>
  );
}
