import { useState } from 'react';
import { Link } from '../router/Link.js';
import { usePagedList } from '../leads/usePagedList.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { formatWhen } from '../tasks/taskDates.js';
import { ENROLLMENT_STATES, type EnrollmentState, type SequenceEnrollment } from '../../shared/resources/sequence.js';
import { enrolledKey, useEnrolledNames } from './useEnrolledNames.js';
import { enrolledPath, progressText } from './enrollmentText.js';
import { CsvExportButton } from '../importExport/ExportButton.js';

/** Every enrollment of the account, newest first, filtered by state. */
export function EnrollmentsScreen() {
  const [state, setState] = useState<EnrollmentState | ''>('');
  const query = { state: state || undefined, sort_by: 'id:desc' };
  const list = usePagedList<SequenceEnrollment>('/v2/sequence_enrollments', query);
  useRefreshOnSync(list.refresh);
  const names = useEnrolledNames(list.rows);

  return (
    <section className="screen enrollments-screen">
      <header className="screen-header">
        <h1>Enrollments</h1>
        <CsvExportButton resource="sequence_enrollments" query={query} what="enrollments" />
      </header>
      <p className="muted">Enroll a lead or a contact from its page.</p>
      <div className="toolbar" role="search">
        <select aria-label="State" value={state} onChange={(e) => setState(e.target.value as EnrollmentState | '')}>
          <option value="">Any state</option>
          {ENROLLMENT_STATES.map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
        <span className="muted count" aria-live="polite">{list.rows.length} shown</span>
      </div>
      <table className="card record-table" aria-label="Enrollments">
        <thead>
          <tr><th>Enrolled</th><th>Sequence</th><th>State</th><th>Progress</th><th>Started</th></tr>
        </thead>
        <tbody>
          {list.rows.map((e) => {
            const name = names.get(enrolledKey(e.resource_type, e.resource_id)) ?? `${e.resource_type} #${e.resource_id}`;
            return (
              <tr key={e.id} aria-label={`${name} in ${e.sequence.data.name}`}>
                <td><Link to={enrolledPath(e.resource_type, e.resource_id)}>{name}</Link> <span className="muted">{e.resource_type}</span></td>
                <td><Link to={`/enrollments/${e.id}`}>{e.sequence.data.name}</Link></td>
                <td><StateBadge enrollment={e} /></td>
                <td>{progressText(e)}</td>
                <td className="muted">{formatWhen(e.created_at)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {!list.loading && list.rows.length === 0 && !list.error && <p className="empty">No enrollments match.</p>}
      {list.error && <p className="form-error" role="alert">{list.error}</p>}
      {list.hasMore && <button type="button" onClick={list.loadMore} disabled={list.loading}>{list.loading ? 'Loading…' : 'Load more'}</button>}
    </section>
  );
}

/** The state, with the reason when finished, in the API's words. */
export function StateBadge({ enrollment }: { enrollment: SequenceEnrollment }) {
  return (
    <span className={`badge enrollment-${enrollment.state}`}>
      {enrollment.state}{enrollment.finished_reason ? ` · ${enrollment.finished_reason}` : ''}
    </span>
  );
}
