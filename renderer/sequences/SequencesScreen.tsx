import { Link } from '../router/Link.js';
import { usePagedList } from '../leads/usePagedList.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { useSession } from '../session/sessionStore.js';
import { TemplatesPanel } from './TemplatesPanel.js';
import { CsvExportButton } from '../importExport/ExportButton.js';
import type { Sequence } from '../../shared/resources/sequence.js';
import { DataTable } from '../lists/DataTable.js';
import { ListCount } from '../lists/ListCount.js';
import { ListStatus } from '../lists/ListStatus.js';
import { unsubscribeText } from './stepText.js';
import { formatDateOf } from '../tasks/taskDates.js';

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
      <p className="muted list-total"><ListCount shown={list.rows.length} total={list.total} loading={list.loading} /></p>
      <DataTable label="Sequences" rows={list.rows} rowKey={(sequence) => sequence.id} rowLabel={(sequence) => sequence.name} columns={[
        { label: 'Name', kind: 'title', cell: (sequence) => <Link to={`/sequences/${sequence.id}`}>{sequence.name}</Link> },
        { label: 'Steps', cell: (sequence) => sequence.steps_total },
        { label: 'Unsubscribe link', cell: (sequence) => unsubscribeText(sequence) },
        { label: 'Updated', kind: 'muted', cell: (sequence) => formatDateOf(sequence.updated_at) },
      ]} />
      <ListStatus list={list} empty="No sequences yet." />
      <TemplatesPanel canEdit={isAdmin} />
    </section>
  );
}
