import type { Task, TaskDueSection } from '../../shared/resources/task.js';
import { api } from '../api/client.js';
import { Link } from '../router/Link.js';
import { TaskItem } from '../tasks/TaskItem.js';
import { sectionQuery } from '../tasks/taskSections.js';
import { useTaskCounts } from '../tasks/taskCountsStore.js';
import { recordOf } from '../records/records.js';
import { useRecordSummaries } from '../records/useRecordSummaries.js';
import { useCardData } from './useCardData.js';
import { HomeCard } from './HomeCard.js';

const SHOWN = 5;

const CARDS: Record<'today' | 'overdue', { title: string; order: string; empty: string; all: (n: number) => string }> = {
  today: { title: 'Due today', order: 'due_date', empty: 'Nothing else is due today.', all: (n) => `All ${n} due today` },
  // The latest first: yesterday's miss matters more today than last month's.
  overdue: { title: 'Overdue', order: 'due_date:desc', empty: 'Nothing is overdue.', all: (n) => `All ${n} overdue` },
};

/** The first tasks of one section (the same query as the Tasks screen's), with its count and a link to the rest. */
export function HomeTasks({ section, ownerId }: { section: Extract<TaskDueSection, 'today' | 'overdue'>; ownerId: number }) {
  const card = CARDS[section];
  const count = useTaskCounts((s) => s.counts?.[section] ?? null);
  const query = sectionQuery(section, ownerId, card.order);
  const { data, failed } = useCardData(async () => (await api.list<Task>('/v2/tasks', { ...query, per_page: SHOWN })).items.map((i) => i.data), JSON.stringify(query));
  const summaries = useRecordSummaries((data ?? []).map(recordOf));
  const footer = count !== null && count > SHOWN ? <Link to="/tasks">{card.all(count)}</Link> : <Link to="/tasks">Open Tasks</Link>;
  return (
    <HomeCard title={card.title} count={count} tone={section === 'overdue' && count ? 'danger' : undefined} failed={failed} footer={footer}>
      {data && data.length === 0 && <p className="muted">{card.empty}</p>}
      {data && data.length > 0 && (
        <ul className="tasks">{data.map((t) => <TaskItem key={t.id} task={t} summaries={summaries} />)}</ul>
      )}
    </HomeCard>
  );
}
