import type { Visit } from '../../shared/resources/visit.js';
import { api } from '../api/client.js';
import { recordOf } from '../records/records.js';
import { RecordLink } from '../records/RecordLink.js';
import { useRecordSummaries } from '../records/useRecordSummaries.js';
import { useCardData } from './useCardData.js';
import { HomeCard } from './HomeCard.js';

/** A page of visits is more than a rep makes in a day; past it the count says "100+". */
const PAGE = 100;

const startOfToday = () => new Date(new Date().setHours(0, 0, 0, 0));
const timeOf = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });

/** The visits the user recorded today (newest first: the list is read from the latest back to midnight). */
async function loadTodaysVisits(userId: number): Promise<{ visits: Visit[]; more: boolean }> {
  const page = await api.list<Visit>('/v2/visits', { creator_id: userId, sort_by: 'visited_at:desc', per_page: PAGE });
  const since = startOfToday().getTime();
  const visits = page.items.map((i) => i.data).filter((v) => Date.parse(v.visited_at) >= since);
  return { visits, more: visits.length === PAGE && Boolean(page.meta.links.next_page) };
}

export function TodayVisits({ userId }: { userId: number }) {
  const { data, failed } = useCardData(() => loadTodaysVisits(userId), `${userId}:${startOfToday().toDateString()}`);
  const summaries = useRecordSummaries((data?.visits ?? []).map(recordOf));
  const count = data ? (data.more ? `${PAGE}+` : data.visits.length) : null;
  return (
    <HomeCard title="Visits today" count={count} failed={failed}>
      {data && data.visits.length === 0 && <p className="muted">No visits recorded today. Record one from a contact's or lead's page.</p>}
      {data && data.visits.length > 0 && (
        <ul className="home-list">
          {data.visits.map((visit) => (
            <li key={visit.id}>
              <span className="home-when">{timeOf(visit.visited_at)}</span>
              <span className="home-what">
                {recordOf(visit) && <RecordLink record={recordOf(visit)!} summaries={summaries} />}
                {visit.summary && <span className="muted"> — {visit.summary}</span>}
              </span>
            </li>
          ))}
        </ul>
      )}
    </HomeCard>
  );
}
