import { useState, type FormEvent } from 'react';
import type { SmartList } from '../../shared/resources/smartList.js';
import { api } from '../api/client.js';
import { refusalText } from '../api/formErrors.js';
import { Link } from '../router/Link.js';
import { useRouter } from '../router/routerStore.js';
import { useSession } from '../session/sessionStore.js';
import { ConfirmDelete } from '../shell/ConfirmDelete.js';
import { useSmartLists } from './smartListStore.js';
import { LIST_PATHS, filtersOf, smartListPath, viewKey } from './smartListQuery.js';
import type { SmartListScreen } from './useSmartListScreen.js';
import './smartLists.css';

interface Props {
  screen: SmartListScreen;
  /** The columns the screen shows, saved with the list. */
  columns: readonly string[];
}

type Form = { kind: 'new' } | { kind: 'rename'; list: SmartList };

/**
 * A list screen's smart list bar: "Save as smart list" for the view shown;
 * with a smart list open, its name, and once the filters changed "Save"
 * (its owner or an admin) and "Save as new"; renaming and deleting it.
 */
export function SmartListToolbar({ screen, columns }: Props) {
  const me = useSession((s) => s.user);
  const navigate = useRouter((s) => s.navigate);
  const [form, setForm] = useState<Form | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { list, dirty, query, resource } = screen;
  const canEdit = list !== null && me !== null && (list.owner_id === me.id || me.role === 'admin');
  const view = () => ({ filters: filtersOf(query), sort_by: typeof query.sort_by === 'string' ? query.sort_by : null, columns: [...columns] });

  const act = async (work: () => Promise<void>, failed: string) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      setForm(null);
    } catch (err) {
      setError(refusalText(err, failed));
    } finally {
      setBusy(false);
    }
  };

  const saveChanges = () => act(async () => {
    const saved = await api.update<SmartList>(`/v2/smart_lists/${list!.id}`, view());
    // The view shown is now the list as saved.
    useSmartLists.setState({ open: { list: saved, baseline: viewKey(query) } });
    useSmartLists.getState().saved(saved);
  }, 'The smart list could not be saved.');

  const submit = (name: string, shared: boolean) => act(async () => {
    if (form?.kind === 'rename') {
      useSmartLists.getState().saved(await api.update<SmartList>(`/v2/smart_lists/${form.list.id}`, { name, shared }));
      return;
    }
    const made = await api.create<SmartList>('/v2/smart_lists', { name, shared, resource_type: resource, ...view() });
    useSmartLists.getState().saved(made);
    navigate(smartListPath(made));
  }, 'The smart list could not be saved.');

  const remove = async () => {
    await api.remove(`/v2/smart_lists/${list!.id}`);
    useSmartLists.getState().saved(null, list!.id);
    navigate(LIST_PATHS[resource]);
  };

  return (
    <div className="smart-list-bar" role="region" aria-label="Smart list">
      {list ? (
        <>
          <span className="smart-list-name">
            <span className="muted">Smart list</span> <strong>{list.name}</strong>
            {list.shared && <span className="badge">Shared</span>}
            {dirty && <span className="muted changed"> · filters changed</span>}
          </span>
          <span className="smart-list-actions">
            {dirty && canEdit && <button type="button" className="primary" disabled={busy} onClick={() => void saveChanges()}>Save</button>}
            {dirty && <button type="button" disabled={busy} onClick={() => setForm({ kind: 'new' })}>Save as new</button>}
            {canEdit && <button type="button" disabled={busy} onClick={() => setForm({ kind: 'rename', list })}>Rename</button>}
            {canEdit && <ConfirmDelete name={list.name} question="Delete this smart list? Its records stay." onConfirm={remove} />}
            <Link to={LIST_PATHS[resource]} className="button">Close</Link>
          </span>
        </>
      ) : (
        <button type="button" className="save-smart-list" onClick={() => setForm({ kind: 'new' })}>Save as smart list</button>
      )}
      {form && (
        <NameForm key={form.kind} initial={form.kind === 'rename' ? form.list : null} busy={busy} onCancel={() => setForm(null)} onSubmit={submit} />
      )}
      {screen.error && <p className="form-error" role="alert">{screen.error}</p>}
      {error && <p className="form-error" role="alert">{error}</p>}
    </div>
  );
}

interface NameFormProps {
  /** The list renamed, or null for a new one. */
  initial: SmartList | null;
  busy: boolean;
  onSubmit(name: string, shared: boolean): Promise<void>;
  onCancel(): void;
}

function NameForm({ initial, busy, onSubmit, onCancel }: NameFormProps) {
  const [name, setName] = useState(initial?.name ?? '');
  const [shared, setShared] = useState(initial?.shared ?? false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onSubmit(name.trim(), shared);
  };
  return (
    <form className="smart-list-form" onSubmit={submit} aria-label={initial ? 'Rename smart list' : 'New smart list'}>
      <label>
        <span>Name</span>
        <input type="text" value={name} required autoFocus onChange={(e) => setName(e.target.value)} placeholder="e.g. West customers" />
      </label>
      <label className="check">
        <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} />
        <span>Share with the team</span>
      </label>
      <button type="submit" className="primary" disabled={busy || name.trim() === ''}>{initial ? 'Save' : 'Save list'}</button>
      <button type="button" onClick={onCancel}>Cancel</button>
    </form>
  );
}
