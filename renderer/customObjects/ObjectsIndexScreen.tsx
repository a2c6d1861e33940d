import { Link } from '../router/Link.js';
import { useSession } from '../session/sessionStore.js';
import { useCustomObjects } from './customObjectsStore.js';
import { ADMIN_PATH, recordsPath } from './paths.js';

/** `/objects`: the account's custom objects, each opening its records. */
export function ObjectsIndexScreen() {
  const isAdmin = useSession((s) => s.user?.role === 'admin');
  const { objects, error } = useCustomObjects();
  return (
    <section className="screen objects-index">
      <header className="screen-header">
        <h1>Objects</h1>
        <Link className="button" to={ADMIN_PATH}>{isAdmin ? 'Define objects' : 'Definitions'}</Link>
      </header>
      {error && <p className="form-error" role="alert">{error}</p>}
      {objects === null && !error && <p className="muted">Loading…</p>}
      {objects !== null && objects.length === 0 && (
        <p className="empty">No custom objects yet.{isAdmin ? ' Define one in Settings → Custom objects.' : ' An administrator defines them.'}</p>
      )}
      {objects !== null && objects.length > 0 && (
        <ul className="card plain-list objects-list">
          {objects.map((o) => (
            <li key={o.key}>
              <Link to={recordsPath(o.key)}><strong>{o.title_pluralized}</strong></Link>
              <span className="muted">{o.description}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
