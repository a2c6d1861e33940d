import { Link } from '../router/Link.js';
import { recordKey, recordPath, type RecordRef } from './records.js';
import type { RecordSummary } from './useRecordSummaries.js';

/** A link to an activity's record, by its name once known ("the contact" until then). */
export function RecordLink({ record, summaries }: { record: RecordRef; summaries: Map<string, RecordSummary> }) {
  const name = summaries.get(recordKey(record))?.name || `the ${record.type}`;
  return <Link to={recordPath(record)} className="record-link">{name}</Link>;
}
