import { useState } from 'react';
import { Link } from '../router/Link.js';
import { usePagedList } from '../leads/usePagedList.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { formatWhen } from '../tasks/taskDates.js';
import { ENROLLMENT_STATES, type EnrollmentState, type SequenceEnrollment } from '../../shared/resources/sequence.js';
import { enrolledKey, useEnrolledNames } from './useEnrolledNames.js';
import { enrolledPath, progressText } from './enrollmentText.js';
import { CsvExportButton } from '../importExport/ExportButton.js';
import { DataTable } from '../lists/DataTable.js';
import { ListCount } from '../lists/ListCount.js';
import { ListStatus } from '../lists/ListStatus.js';
import { capitalized, humanized } from '../shell/words.js';

/** Every enrollment of the account, newest first, filtered by state. */
export function EnrollmentsScreen() {
  const [state, setState] = useState<EnrollmentState | ''>('');
  const query = { state: state || undefined, sort_by: 'id:desc' };
  const list = usePagedList<SequenceEnrollment>('/v2/sequence_enrollments', query);
  useRefreshOnSync(list.refresh);
  const names = useEnrolledNames(list.rows);
  // "a lead" until its name arrives: never an id.
  const nameOf = (e: SequenceEnrollment) => names.get(enrolledKey(e.resource_type, e.resource_id)) ?? `a ${e.resource_type}`;

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
          {ENROLLMENT_STATES.map((s) => <option key={s} value={s}>{capitalized(s)}</option>)}
        </select>
        <ListCount shown={list.rows.length} total={list.total} loading={list.loading} />
      </div>
      <DataTable label="Enrollments" rows={list.rows} rowKey={(e) => e.id} rowLabel={(e) => `${nameOf(e)} in ${e.sequence.data.name}`} columns={[
        { label: 'Enrolled', kind: 'title', cell: (e) => <><Link to={enrolledPath(e.resource_type, e.resource_id)}>{nameOf(e)}</Link> <span className="muted">{capitalized(e.resource_type)}</span></> },
        { label: 'Sequence', cell: (e) => <Link to={`/enrollments/${e.id}`}>{e.sequence.data.name}</Link> },
        { label: 'State', cell: (e) => <StateBadge enrollment={e} /> },
        { label: 'Progress', cell: (e) => progressText(e) },
        { label: 'Started', kind: 'muted', cell: (e) => formatWhen(e.created_at) },
      ]} />
      <ListStatus list={list} empty="No enrollments match." />
    </section>
  );
}

/** The state, with the reason when finished, in words (`unsubscribed` → "Finished · unsubscribed"). */
export function StateBadge({ enrollment }: { enrollment: SequenceEnrollment }) {
  return (
    <span className={`badge enrollment-${enrollment.state}`}>
      {capitalized(enrollment.state)}{enrollment.finished_reason ? ` · ${humanized(enrollment.finished_reason).toLowerCase()}` : ''}
    </span>
  );
}
