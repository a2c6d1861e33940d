// Which reminders the desktop's system notifications announce: the signed-in
// user's own (a replica also holds the team's tasks), the latest first, so one
// that has just come due is on the first page whatever the backlog (before,
// the oldest 20 of 160 were read again and again, and newer ones never shown).
// Pure Node code (no 'electron' import) so it is tested under Vitest.
import type { DueReminder } from '../../shared/reminders.js';
import { signedInUserId, type EngineGet } from './overdueBadge.js';

const PAGE = 20;

export async function fetchDueReminders(get: EngineGet): Promise<DueReminder[]> {
  const userId = await signedInUserId(get);
  if (userId === null) return [];
  const answer = await get('/v2/tasks', { owner_id: userId, reminder_due: true, sort_by: 'remind_at:desc', per_page: PAGE });
  if (answer.status !== 200) return [];
  return ((answer.body as { items?: { data: DueReminder }[] } | null)?.items ?? []).map((i) => i.data);
}
