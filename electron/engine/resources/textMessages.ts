import type { Actor, EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { notFound } from '../problems.js';
import { checkFields, isBlank, type FieldTable } from './fields.js';
import { runList, type ListDefinition, type ListPage } from './listing.js';
import type { RawQuery } from './params.js';
import { jsonBool, jsonObject } from '../db/sqlJson.js';
import { checkRecordsExist, checkResourceLink, removeLinkedOnDelete } from './resourceLinks.js';
import { RecordStore } from './recordStore.js';
import type { Users } from './users.js';
import type { SyncSource } from '../sync/sources.js';

/** What an import may carry for one message (the API itself is read-only, as the spec says). */
export const FIELDS: FieldTable = {
  user_id: { kind: 'id' },
  user_phone_number: { kind: 'string' },
  content: { kind: 'string', maxLength: 65535 },
  incoming: { kind: 'boolean' },
  resource_type: { kind: 'enum', values: ['lead', 'contact', 'none'], nullable: true },
  resource_id: { kind: 'id' },
  resource_phone_number: { kind: 'string' },
  associated_deal_ids: { kind: 'idList' },
  send_at: { kind: 'datetime' },
};

// The spec's field table also spells these associated_deal_id and sent_at; responses use the names it gives first.
const MESSAGE_JSON = jsonObject({
  id: 'm.id', user_id: 'm.user_id', user_phone_number: 'm.user_phone_number', content: 'm.content',
  incoming: jsonBool('m.incoming'), resource_type: 'm.resource_type', resource_id: 'm.resource_id',
  resource_phone_number: 'm.resource_phone_number', associated_deal_ids: 'json(m.associated_deal_ids)',
  send_at: 'm.send_at', created_at: 'm.created_at', updated_at: 'm.updated_at',
});

/** Text messages as devices receive them (sync/). */
export const TEXT_MESSAGE_SYNC: SyncSource = { type: 'text_message', from: 'text_messages m', idColumn: 'm.id', json: MESSAGE_JSON };

const WRITABLE = ['user_id', 'user_phone_number', 'content', 'incoming', 'resource_type', 'resource_id', 'resource_phone_number', 'associated_deal_ids', 'send_at'] as const;

export const LIST: ListDefinition = {
  resource: 'text_message',
  from: 'text_messages m',
  json: MESSAGE_JSON,
  idColumn: 'm.id',
  filters: {
    resource_type: { kind: 'enum', column: 'm.resource_type', values: ['lead', 'contact'] },
    resource_id: { kind: 'id', column: 'm.resource_id' },
  },
  sorts: { id: 'm.id' },
  descendingByDefault: true,
  defaultOrder: 'm.id DESC',
  maxPage: 1000,
  together: [['resource_type', 'resource_id']],
};

/** Text messages: read-only through the API; they enter by import (`outpost import text-messages`) and the seed. */
export class TextMessages {
  private readonly store: RecordStore;

  constructor(private readonly ctx: EngineContext, private readonly users: Users) {
    this.store = new RecordStore(ctx, 'text_messages', 'text_message', WRITABLE);
    removeLinkedOnDelete(ctx, 'text_messages', (id, actorId) => this.store.remove(id, actorId));
  }

  json(id: number): string {
    const json = this.ctx.db.prepare(`SELECT ${MESSAGE_JSON} FROM text_messages m WHERE m.id = ?`).pluck().get(id) as string | undefined;
    if (json === undefined) throw notFound('text_message', id);
    return json;
  }

  listPage(query: RawQuery): ListPage {
    return runList(LIST, query, this.ctx.statements);
  }

  /** Records one message (import); the same checks as any write, errors as a 422. */
  create(data: Record<string, unknown>, actor: Actor): number {
    const { values, errors } = checkFields('text_message', FIELDS, data);
    if (isBlank(values.content) && !errors.has('/content')) errors.add('/content', values.content === undefined ? 'missing' : 'blank', 'content is required.');
    this.users.checkReference('user_id', values.user_id, errors);
    const type = values.resource_type === 'none' ? null : (values.resource_type as string | null | undefined);
    checkResourceLink(this.ctx.db, { resource_type: type, resource_id: values.resource_id as number | null | undefined }, errors, { required: false, changed: true });
    if (Array.isArray(values.associated_deal_ids)) checkRecordsExist(this.ctx.db, 'deal', values.associated_deal_ids as number[], '/associated_deal_ids', errors);
    errors.throwIfAny();
    const row = {
      ...values,
      user_id: values.user_id ?? actor.userId,
      incoming: values.incoming ? 1 : 0,
      resource_type: type ?? 'none',
      associated_deal_ids: JSON.stringify(values.associated_deal_ids ?? []),
      send_at: values.send_at ?? isoSeconds(this.ctx.clock.now()),
    };
    return this.store.insert(row, {}, actor.userId);
  }
}
