import { useSession } from '../session/sessionStore.js';
import { useRouter } from '../router/routerStore.js';
import { Link } from '../router/Link.js';
import { objectPath, supportApi } from '../api/supportClient.js';
import { ConfirmDelete } from '../shell/ConfirmDelete.js';
import { useCustomObject, useCustomObjects } from './customObjectsStore.js';
import { FieldsPanel } from './FieldsPanel.js';
import { ObjectForm } from './ObjectForm.js';
import { ADMIN_PATH, recordsPath } from './paths.js';

const formatTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * One object's definition and fields. Admins edit the titles and the
 * description (not the key) and delete the object with its fields and
 * records; the interface refuses while another object's lookup targets it,
 * and its message names those lookups. Agents see the same read only.
 */
export function ObjectAdminPage({ objectKey }: { objectKey: string }) {
  const isAdmin = useSession((s) => s.user?.role === 'admin');
  const object = useCustomObject(objectKey);
  const { objects, error, load } = useCustomObjects();
  const navigate = useRouter((s) => s.navigate);

  const back = <p className="breadcrumbs"><Link to="/settings">Settings</Link> / <Link to={ADMIN_PATH}>Custom objects</Link></p>;
  if (!object) {
    return (
      <section className="screen object-admin">
        {back}
        {error && <p className="form-error" role="alert">{error}</p>}
        {!error && (objects === null ? <p className="muted">Loading…</p> : <p className="empty">There is no custom object with the key {objectKey}.</p>)}
      </section>
    );
  }

  const remove = async () => {
    await supportApi.remove(objectPath(object.key));
    await load();
    navigate(ADMIN_PATH);
  };

  return (
    <section className="screen object-admin">
      <header className="screen-header">
        <div>
          {back}
          <h1>{object.title}</h1>
        </div>
        <div className="actions">
          <Link className="button" to={recordsPath(object.key)}>Open {object.title_pluralized}</Link>
          {isAdmin && (
            <ConfirmDelete name={`object ${object.title}`} question={`Delete ${object.title} with all its fields and records? This cannot be undone.`} onConfirm={remove} />
          )}
        </div>
      </header>
      {isAdmin
        ? <ObjectForm key={object.key} object={object} onSaved={() => void load()} />
        : (
          <dl className="card details" aria-label="Object details">
            <dt>Title</dt><dd>{object.title}</dd>
            <dt>Plural title</dt><dd>{object.title_pluralized}</dd>
            <dt>Description</dt><dd>{object.description ?? '—'}</dd>
            <dt>Updated</dt><dd>{formatTime(object.updated_at)}</dd>
          </dl>
        )}
      <FieldsPanel object={object} canEdit={isAdmin} />
    </section>
  );
}
