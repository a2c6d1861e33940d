import type { QueryValue } from '../../shared/bridge.js';
import { contactDisplayName, type Contact } from '../../shared/resources/contact.js';
import type { Deal } from '../../shared/resources/deal.js';
import { leadDisplayName, type Lead } from '../../shared/resources/lead.js';
import type { User } from '../../shared/resources/user.js';
import { api } from '../api/client.js';
import { objectPath, supportApi } from '../api/supportClient.js';
import { targetObjectKey, type RecordPage } from './types.js';

/** One record a lookup can point at: its id as the lookup stores it (a string) and what people call it. */
export interface TargetOption {
  id: string;
  name: string;
  /** A hint shown next to the name (an organization, an email). */
  detail?: string;
}

const SUGGESTIONS = 8;
/** The /v2 lists' and the records list's largest page. */
const BATCH = 100;

interface CrmTarget<T = unknown> {
  path: string;
  /** The query finding records by typed text; null when the list has no search (deals, users): then names are matched here. */
  search: ((text: string) => Record<string, QueryValue>) | null;
  /** Without search: the list whose names are matched (deals; active users). */
  browse?: Record<string, QueryValue>;
  option(record: T): TargetOption;
}

/** A target whose list answers records of type T. */
function crmTarget<T>(target: CrmTarget<T>): CrmTarget {
  return { ...target, option: (record) => target.option(record as T) };
}

/**
 * This CRM's records a lookup can target. Contacts and leads have search as
 * you type (`q`). Deals and users have only exact filters, so their
 * suggestions are the first 100 by name containing the text, plus an exact
 * name match (teams have few users; a deal beyond the first hundred names is
 * found by its full name).
 */
const CRM_TARGETS: Record<string, CrmTarget> = {
  'sell:contact': crmTarget<Contact>({
    path: '/v2/contacts',
    search: (q) => ({ q, sort_by: 'name' }),
    option: (c: Contact) => ({ id: String(c.id), name: contactDisplayName(c), detail: c.is_organization ? 'organization' : c.email ?? undefined }),
  }),
  'sell:lead': crmTarget<Lead>({
    path: '/v2/leads',
    search: (q) => ({ q }),
    option: (l: Lead) => ({ id: String(l.id), name: leadDisplayName(l), detail: l.first_name || l.last_name ? l.organization_name ?? undefined : undefined }),
  }),
  'sell:deal': crmTarget<Deal>({
    path: '/v2/deals',
    search: null,
    browse: { sort_by: 'name' },
    option: (d: Deal) => ({ id: String(d.id), name: d.name }),
  }),
  'zen:user': crmTarget<User>({
    path: '/v2/users',
    search: null,
    browse: { sort_by: 'name', status: 'active' },
    option: (u: User) => ({ id: String(u.id), name: u.name, detail: u.status === 'inactive' ? 'deactivated' : u.email }),
  }),
};

const contains = (text: string) => (option: TargetOption) => option.name.toLowerCase().includes(text.trim().toLowerCase());

/** Records of `target` matching typed text, for a lookup picker's suggestions. */
export async function searchTarget(target: string, text: string): Promise<TargetOption[]> {
  const objectKey = targetObjectKey(target);
  if (objectKey !== null) {
    const page = await supportApi.get<RecordPage>(objectPath(objectKey, 'records', 'search'), { query: text, 'page[size]': SUGGESTIONS });
    return page.custom_object_records.map((r) => ({ id: r.id, name: r.name }));
  }
  const crm = CRM_TARGETS[target];
  if (!crm) return [];
  const { option } = crm;
  if (crm.search) {
    const page = await api.list<unknown>(crm.path, { ...crm.search(text), per_page: SUGGESTIONS });
    return page.items.map((i) => option(i.data));
  }
  const [exact, byName] = await Promise.all([
    api.list<unknown>(crm.path, { ...crm.browse, name: text.trim(), per_page: SUGGESTIONS }),
    api.list<unknown>(crm.path, { ...crm.browse, per_page: BATCH }),
  ]);
  const found = new Map<string, TargetOption>();
  for (const o of [...exact.items.map((i) => option(i.data)), ...byName.items.map((i) => option(i.data)).filter(contains(text))]) found.set(o.id, o);
  return [...found.values()].slice(0, SUGGESTIONS);
}

function batches<T>(items: readonly T[]): T[][] {
  return Array.from({ length: Math.ceil(items.length / BATCH) }, (_, i) => items.slice(i * BATCH, (i + 1) * BATCH));
}

/**
 * The names of the given records of `target`, by id (the ones that no longer
 * exist are left out). CRM ids are numbers; anything else cannot name one.
 */
export async function targetNames(target: string, ids: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const objectKey = targetObjectKey(target);
  if (objectKey !== null) {
    for (const batch of batches(ids)) {
      const page = await supportApi.get<RecordPage>(objectPath(objectKey, 'records'), { 'filter[ids]': batch, 'page[size]': BATCH });
      for (const r of page.custom_object_records) names.set(r.id, r.name);
    }
    return names;
  }
  const crm = CRM_TARGETS[target];
  const numeric = ids.filter((id) => /^-?\d+$/.test(id));
  if (!crm || numeric.length === 0) return names;
  const { option } = crm;
  for (const batch of batches(numeric)) {
    const page = await api.list<unknown>(crm.path, { ids: batch, per_page: BATCH });
    for (const item of page.items) {
      const o = option(item.data);
      names.set(o.id, o.name);
    }
  }
  return names;
}
