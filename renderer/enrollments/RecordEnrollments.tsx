import { useState } from 'react';
import { api } from '../api/client.js';
import { Link } from '../router/Link.js';
import { usePagedList } from '../leads/usePagedList.js';
import { useNamedOptions } from '../leads/useNamedOptions.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import type { EnrollmentResourceType, Sequence, SequenceEnrollment } from '../../shared/resources/sequence.js';
import { NoMailServerWarning } from '../sequences/NoMailServerWarning.js';
import { StateBadge } from './EnrollmentsScreen.js';
import { progressText } from './enrollmentText.js';
import { refusalText } from '../api/formErrors.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { RecordSection } from '../records/RecordSection.js';

/**
 * A lead's or contact's sequences: the enrollments it has had, and the way
 * to enroll it in one more. A refusal (the add-on missing, say) shows in the
 * API's words.
 */
export function RecordEnrollments({ resourceType, resourceId }: { resourceType: EnrollmentResourceType; resourceId: number }) {
  const list = usePagedList<SequenceEnrollment>('/v2/sequence_enrollments', { resource_type: resourceType, resource_ids: String(resourceId), sort_by: 'id:desc' }, 20);
  useRefreshOnSync(list.refresh);
  const sequences = useNamedOptions<Sequence>('/v2/sequences');
  const [sequenceId, setSequenceId] = useState('');
  const chosen = sequences.find((s) => String(s.id) === sequenceId);

  const { saving, errors, submit: enroll } = useFormSubmit({ errorsOf: (err) => ({ _: refusalText(err, 'The enrollment could not be started.') }), stays: true }, async () => {
    await api.create('/v2/sequence_enrollments', { sequence_id: Number(sequenceId), resource_type: resourceType, resource_id: resourceId });
    setSequenceId('');
    list.refresh();
  });

  return (
    <RecordSection title="Sequences" count={list.total} className="record-enrollments">
      {list.rows.length === 0 && !list.loading && <p className="muted">Not enrolled in any sequence.</p>}
      <ul className="plain-list">
        {list.rows.map((e) => (
          <li key={e.id}>
            <Link to={`/enrollments/${e.id}`}>{e.sequence.data.name}</Link> <StateBadge enrollment={e} /> <span className="muted">{progressText(e)}</span>
          </li>
        ))}
      </ul>
      {list.error && <p className="form-error" role="alert">{list.error}</p>}
      <form className="inline-form" onSubmit={(e) => void enroll(e)}>
        <label className="grow">
          Enroll in a sequence
          <select value={sequenceId} onChange={(e) => setSequenceId(e.target.value)}>
            <option value="">Choose a sequence</option>
            {sequences.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
          </select>
        </label>
        <button type="submit" disabled={saving || sequenceId === ''}>{saving ? 'Enrolling…' : 'Enroll'}</button>
      </form>
      {chosen && <NoMailServerWarning steps={chosen.steps} />}
      {errors._ && <p className="form-error" role="alert">{errors._}</p>}
    </RecordSection>
  );
}
