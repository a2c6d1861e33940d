import { Link } from '../router/Link.js';
import { usePagedList } from '../leads/usePagedList.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { useSession } from '../session/sessionStore.js';
import { TemplatesPanel } from './TemplatesPanel.js';
import { CsvExportButton } from '../importExport/ExportButton.js';
import type { Sequence } from '../../shared/resources/sequence.js';

/** The sequences and the email templates they send: everyone reads them, admins manage them. */
export function SequencesScreen() {
  const isAdmin = useSession((s) => s.user?.role === 'admin');
  const query = { sort_by: 'name' };
  const list = usePagedList<Sequence>('/v2/sequences', query);
  useRefreshOnSync(list.refresh);

  return (
    <section className="screen sequences-screen">
      <header className="screen-header">
        <h1>Sequences</h1>
        <div className="list-actions">
          <CsvExportButton resource="sequences" query={query} what="sequences" />
          {isAdmin && <Link to="/sequences/new" className="button primary">New sequence</Link>}
        </div>
      </header>
      {!isAdmin && <p className="muted">Only administrators change sequences and templates.</p>}
      <table className="card record-table" aria-label="Sequences">
        <thead>
          <tr><th>Name</th><th>Steps</th><th>Unsubscribe link</th><th>Updated</th></tr>
        </thead>
        <tbody>
          {list.rows.map((sequence) => (
            <tr key={sequence.id} aria-label={sequence.name}>
              <td><Link to={`/sequences/${sequence.id}`}>{sequence.name}</Link></td>
              <td>{sequence.steps_total}</td>
              <td>{sequence.unsubscribe_settings.enabled ? `on (${sequence.unsubscribe_settings.locale})` : 'off'}</td>
              <td className="muted">{sequence.updated_at.slice(0, 10)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!list.loading && list.rows.length === 0 && !list.error && <p className="empty">No sequences yet.</p>}
      {list.error && <p className="form-error" role="alert">{list.error}</p>}
      {list.hasMore && <button type="button" onClick={list.loadMore} disabled={list.loading}>{list.loading ? 'Loading…' : 'Load more'}</button>}
      <TemplatesPanel canEdit={isAdmin} />
    </section>
  );
}
