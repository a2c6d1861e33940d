import type { Note } from '../../shared/resources/note.js';
import type { Task } from '../../shared/resources/task.js';
import type { Call } from '../../shared/resources/call.js';
import type { Visit } from '../../shared/resources/visit.js';
import type { CrmDocument } from '../../shared/resources/document.js';
import { api } from '../api/client.js';

export interface TextMessage {
  id: number;
  content: string;
  incoming: boolean;
  send_at: string;
}

export type TimelineEntry =
  | { kind: 'note'; at: string; item: Note }
  | { kind: 'task'; at: string; item: Task }
  | { kind: 'call'; at: string; item: Call }
  | { kind: 'text_message'; at: string; item: TextMessage }
  | { kind: 'visit'; at: string; item: Visit }
  | { kind: 'document'; at: string; item: CrmDocument };

async function items<T>(path: string, query: Record<string, string | number>): Promise<T[]> {
  return (await api.list<T>(path, { ...query, per_page: 100 })).items.map((i) => i.data);
}

/** Everything that happened around one record, newest first. */
export async function loadTimeline(resourceType: 'contact' | 'lead' | 'deal', resourceId: number): Promise<TimelineEntry[]> {
  const of = { resource_type: resourceType, resource_id: resourceId };
  const [notes, tasks, calls, messages, visits, documents] = await Promise.all([
    items<Note>('/v2/notes', of),
    items<Task>('/v2/tasks', of),
    items<Call>('/v2/calls', resourceType === 'deal' ? { associated_deal_id: resourceId } : of),
    resourceType === 'deal' ? [] : items<TextMessage>('/v2/text_messages', of),
    resourceType === 'deal' ? [] : items<Visit>('/v2/visits', of),
    items<CrmDocument>('/v2/documents', of),
  ]);
  const entries: TimelineEntry[] = [
    ...notes.map((item) => ({ kind: 'note' as const, at: item.created_at, item })),
    ...tasks.map((item) => ({ kind: 'task' as const, at: item.created_at, item })),
    ...calls.map((item) => ({ kind: 'call' as const, at: item.made_at, item })),
    ...messages.map((item) => ({ kind: 'text_message' as const, at: item.send_at, item })),
    ...visits.map((item) => ({ kind: 'visit' as const, at: item.visited_at, item })),
    ...documents.map((item) => ({ kind: 'document' as const, at: item.created_at, item })),
  ];
  return entries.sort((a, b) => b.at.localeCompare(a.at) || b.item.id - a.item.id);
}

