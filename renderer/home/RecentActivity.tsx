import { formatWhen } from '../tasks/taskDates.js';
import { RecordLink } from '../records/RecordLink.js';
import { useRecordSummaries } from '../records/useRecordSummaries.js';
import { useCardData } from './useCardData.js';
import { HomeCard } from './HomeCard.js';
import { loadRecentActivity, onMyRecords, type ActivityEntry } from './recentActivity.js';

const LABELS: Record<ActivityEntry['kind'], string> = { note: 'Note', call: 'Call', task: 'Done' };

/** Notes, calls and tasks done on the user's records, or by the user, lately. */
export function RecentActivity({ userId }: { userId: number }) {
  const { data, failed } = useCardData(() => loadRecentActivity(userId), String(userId));
  const summaries = useRecordSummaries((data ?? []).map((e) => e.record));
  const entries = data ? onMyRecords(data, userId, summaries) : null;
  return (
    <HomeCard title="Recent activity" failed={failed}>
      {entries && entries.length === 0 && <p className="muted">Nothing lately on your records.</p>}
      {entries && entries.length > 0 && (
        <ul className="home-list activity">
          {entries.map((entry) => (
            <li key={`${entry.kind}-${entry.id}`} className={entry.kind}>
              <span className="home-what">
                <b>{LABELS[entry.kind]}</b> <span className="activity-text">{entry.text}</span>
                {entry.record && <> · <RecordLink record={entry.record} summaries={summaries} /></>}
              </span>
              <span className="muted home-when">{formatWhen(entry.at)}</span>
            </li>
          ))}
        </ul>
      )}
    </HomeCard>
  );
}
