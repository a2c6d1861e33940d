import { useState } from 'react';
import { useSession } from '../session/sessionStore.js';
import { useRouter } from '../router/routerStore.js';
import { Link } from '../router/Link.js';
import { PLAN_LIMITS } from '../../shared/resources/account.js';
import { useCustomObjects } from './customObjectsStore.js';
import { ObjectForm } from './ObjectForm.js';
import { adminObjectPath, recordsPath } from './paths.js';
import { DataTable } from '../lists/DataTable.js';

/**
 * Settings → Custom objects: the account's objects, and for admins the form
 * to define one. Agents see the list read only (the interface refuses them
 * any change to definitions); both open an object's records from here.
 */
export function ObjectsAdminScreen() {
  const isAdmin = useSession((s) => s.user?.role === 'admin');
  const plan = useSession((s) => s.account?.plan);
  const { objects, error, load } = useCustomObjects();
  const navigate = useRouter((s) => s.navigate);
  const [creating, setCreating] = useState(false);

  return (
    <section className="screen objects-admin">
      <header className="screen-header">
        <div>
          <p className="breadcrumbs"><Link to="/settings">Settings</Link></p>
          <h1>Custom objects</h1>
        </div>
        {isAdmin && !creating && <button type="button" className="primary" onClick={() => setCreating(true)}>New object</button>}
      </header>
      <p className="muted">
        Kinds of records your team keeps besides contacts, leads and deals (cars, contracts, sites…), each with fields of its own.
        {plan && ` The ${plan} plan allows ${PLAN_LIMITS[plan].customObjects} objects.`}
      </p>
      {!isAdmin && <p className="notice" role="note">Only administrators define objects and their fields. You can read them here and work with their records.</p>}
      {isAdmin && creating && (
        <ObjectForm object={null} onCancel={() => setCreating(false)} onSaved={(object) => {
          void load();
          navigate(adminObjectPath(object.key));
        }} />
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
      {objects === null && !error && <p className="muted">Loading…</p>}
      {objects !== null && objects.length === 0 && <p className="empty">No custom objects yet.</p>}
      {objects !== null && objects.length > 0 && (
        <DataTable label="Custom objects" rows={objects} rowKey={(o) => o.key} rowLabel={(o) => o.title} columns={[
          { label: 'Title', kind: 'title', cell: (o) => <Link to={adminObjectPath(o.key)}>{o.title}</Link> },
          { label: 'Plural title', cell: (o) => o.title_pluralized },
          { label: 'Description', kind: 'muted', cell: (o) => o.description },
          {
            label: 'Links', kind: 'actions', cell: (o) => (
              <div className="row-actions">
                <Link to={adminObjectPath(o.key)} aria-label={`${isAdmin ? 'Edit' : 'View'} ${o.title} and its fields`}>{isAdmin ? 'Edit' : 'Fields'}</Link>
                <Link to={recordsPath(o.key)} aria-label={`Records: ${o.title_pluralized}`}>Records</Link>
              </div>
            ),
          },
        ]} />
      )}
    </section>
  );
}
