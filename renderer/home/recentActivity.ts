import type { Note } from '../../shared/resources/note.js';
import type { Call } from '../../shared/resources/call.js';
import type { Task } from '../../shared/resources/task.js';
import { api } from '../api/client.js';
import { showPhone } from '../records/phoneFormat.js';
import { recordKey, recordOf, type RecordRef } from '../records/records.js';
import type { RecordSummary } from '../records/useRecordSummaries.js';

export interface ActivityEntry {
  kind: 'note' | 'call' | 'task';
  id: number;
  at: string;
  /** Who wrote, made or completed it. */
  by: number;
  text: string;
  record: RecordRef | null;
}

/** How far back the Home screen looks: the latest notes and calls of the team, and the user's tasks done. */
const LOOK_BACK = 50;
const TASKS_DONE = 10;
export const ENTRIES_SHOWN = 8;
/** A long note is cut: the card gives the gist, the record's timeline the rest. */
const TEXT_SHOWN = 140;

const gist = (text: string) => (text.length > TEXT_SHOWN ? `${text.slice(0, TEXT_SHOWN).trimEnd()}…` : text);

async function items<T>(path: string, query: Record<string, string | number | boolean>): Promise<T[]> {
  return (await api.list<T>(path, query)).items.map((i) => i.data);
}

const callText = (call: Call) => `${call.missed ? '(missed) ' : call.incoming ? '(incoming) ' : ''}${call.summary ?? showPhone(call.phone_number).text}`;

/**
 * The latest activity the API gives cheaply, three index-ordered pages:
 * notes (by last change), calls (newest first, the list's own order) and
 * the tasks the user completed. Which of them are on the user's records is
 * decided once their records are known (see onMyRecords).
 */
export async function loadRecentActivity(userId: number): Promise<ActivityEntry[]> {
  const [notes, calls, tasks] = await Promise.all([
    items<Note>('/v2/notes', { sort_by: 'updated_at:desc', per_page: LOOK_BACK }),
    items<Call>('/v2/calls', { per_page: LOOK_BACK }),
    items<Task>('/v2/tasks', { owner_id: userId, completed: true, sort_by: 'completed_at:desc', per_page: TASKS_DONE }),
  ]);
  const entries: ActivityEntry[] = [
    ...notes.map((n) => ({ kind: 'note' as const, id: n.id, at: n.updated_at, by: n.creator_id, text: gist(n.content), record: recordOf(n) })),
    ...calls.map((c) => ({ kind: 'call' as const, id: c.id, at: c.made_at, by: c.user_id, text: gist(callText(c)), record: recordOf(c) })),
    ...tasks.map((t) => ({ kind: 'task' as const, id: t.id, at: t.completed_at ?? t.updated_at, by: userId, text: gist(t.content), record: recordOf(t) })),
  ];
  return entries.sort((a, b) => b.at.localeCompare(a.at));
}

/** What the user did, and what others did on records the user owns; the latest first. */
export function onMyRecords(entries: ActivityEntry[], userId: number, summaries: Map<string, RecordSummary>): ActivityEntry[] {
  const mine = (e: ActivityEntry) => e.by === userId || (e.record !== null && summaries.get(recordKey(e.record))?.ownerId === userId);
  return entries.filter(mine).slice(0, ENTRIES_SHOWN);
}
