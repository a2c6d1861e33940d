import { LEAD_STATUSES } from '../../shared/resources/lead.js';
import type { CustomFieldResourceType } from '../../shared/resources/customField.js';

/** What a bulk action does; each list offers those its records have. */
export type BulkAction = 'owner' | 'tags_add' | 'tags_remove' | 'status' | 'stage' | 'completed' | 'custom_field' | 'delete';

export const ACTION_LABELS: Record<BulkAction, string> = {
  owner: 'Change owner',
  tags_add: 'Add tags',
  tags_remove: 'Remove tags',
  status: 'Set status',
  stage: 'Move to stage',
  completed: 'Mark done or not done',
  custom_field: 'Set a custom field',
  delete: 'Delete',
};

/** One kind of list with bulk actions: where its records live and what can be done to many at once. */
export interface BulkKind {
  collection: string;
  /** The record page's path before its id (`/contacts` → `/contacts/12`); tasks have no page of their own. */
  pagePath?: string;
  one: string;
  many: string;
  actions: readonly BulkAction[];
  customFields?: CustomFieldResourceType;
  statuses?: readonly string[];
}

export const BULK_KINDS = {
  contacts: {
    collection: '/v2/contacts', pagePath: '/contacts', one: 'contact', many: 'contacts', customFields: 'contact',
    actions: ['owner', 'tags_add', 'tags_remove', 'custom_field', 'delete'],
  },
  leads: {
    collection: '/v2/leads', pagePath: '/leads', one: 'lead', many: 'leads', customFields: 'lead', statuses: LEAD_STATUSES,
    actions: ['owner', 'tags_add', 'tags_remove', 'status', 'custom_field', 'delete'],
  },
  deals: {
    collection: '/v2/deals', pagePath: '/deals', one: 'deal', many: 'deals', customFields: 'deal',
    actions: ['owner', 'tags_add', 'tags_remove', 'stage', 'custom_field', 'delete'],
  },
  tasks: {
    collection: '/v2/tasks', one: 'task', many: 'tasks',
    actions: ['owner', 'completed', 'delete'],
  },
} as const satisfies Record<string, BulkKind>;

/** "1 contact", "4 200 contacts". */
export const countOf = (kind: BulkKind, n: number) => `${n.toLocaleString()} ${n === 1 ? kind.one : kind.many}`;

/** Tag names as typed: separated by commas, trimmed, blanks left out. */
export const tagNames = (text: string) => [...new Set(text.split(',').map((t) => t.trim()).filter(Boolean))];
