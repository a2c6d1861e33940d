import type { Actor, EngineContext } from '../context.js';
import { RecordStore } from './recordStore.js';
import { FieldErrors, notFound } from '../problems.js';
import { requireAuthorOrAdmin } from '../auth/permissions.js';
import { checkFields, isBlank, type FieldTable } from './fields.js';
import { ftsPrefixQuery, runList, type ListDefinition, type ListPage } from './listing.js';
import type { RawQuery } from './params.js';
import { jsonBool, jsonObject } from '../db/sqlJson.js';
import { checkResourceLink, removeLinkedOnDelete } from './resourceLinks.js';
import { NOTE_RESOURCE_TYPES, NOTE_TYPES } from '../../../shared/resources/note.js';
import type { Tagging, TaggableType } from './tags.js';
import type { SyncSource } from '../sync/sources.js';

/** The spec's Note field table. */
export const FIELDS: FieldTable = {
  id: { kind: 'readOnly' },
  creator_id: { kind: 'readOnly' },
  created_at: { kind: 'readOnly' },
  updated_at: { kind: 'readOnly' },
  resource_type: { kind: 'enum', values: NOTE_RESOURCE_TYPES, nullable: true },
  resource_id: { kind: 'id' },
  content: { kind: 'string', maxLength: 65535 },
  is_important: { kind: 'boolean' },
  tags: { kind: 'tags' },
  type: { kind: 'enum', values: NOTE_TYPES },
};

const NOTE_JSON = jsonObject({
  id: 'n.id',
  creator_id: 'n.creator_id',
  resource_type: 'n.resource_type',
  resource_id: 'n.resource_id',
  content: 'n.content',
  is_important: jsonBool('n.is_important'),
  tags: 'json(n.tags)',
  type: 'n.type',
  created_at: 'n.created_at',
  updated_at: 'n.updated_at',
});

/** Restricted notes exist only for their creator: everyone else gets 404 and never sees them in lists or sync. */
const visibleTo = (user: string) => `(n.type = 'regular' OR n.creator_id = ${user})`;
const VISIBLE = visibleTo('?');

/** Notes as devices receive them (sync/): restricted ones only on their creator's devices. */
export const NOTE_SYNC: SyncSource = { type: 'note', from: 'notes n', idColumn: 'n.id', json: NOTE_JSON, visibleTo: visibleTo('@user') };

interface NoteRow {
  creator_id: number | null;
  resource_type: string;
  resource_id: number;
  content: string;
  is_important: number;
  tags: string;
  type: string;
}

const WRITABLE = ['resource_type', 'resource_id', 'content', 'is_important', 'tags', 'type'] as const;

export class Notes {
  private readonly visibleJson;
  private readonly visibleRow;
  private readonly list: ListDefinition;
  private readonly store: RecordStore;

  constructor(private readonly ctx: EngineContext, private readonly tagging: Tagging) {
    this.store = new RecordStore(ctx, 'notes', 'note', WRITABLE);
    this.visibleJson = ctx.db.prepare(`SELECT ${NOTE_JSON} FROM notes n WHERE n.id = ? AND ${VISIBLE}`).pluck();
    this.visibleRow = ctx.db.prepare(`SELECT * FROM notes n WHERE n.id = ? AND ${VISIBLE}`);
    this.list = {
      resource: 'note',
      from: 'notes n',
      json: NOTE_JSON,
      idColumn: 'n.id',
      filters: {
        creator_id: { kind: 'id', column: 'n.creator_id' },
        resource_type: { kind: 'enum', column: 'n.resource_type', values: NOTE_RESOURCE_TYPES },
        resource_id: { kind: 'id', column: 'n.resource_id' },
      },
      sorts: { resource_type: 'n.resource_type', created_at: 'n.created_at', updated_at: 'n.updated_at' },
      defaultOrder: 'n.updated_at ASC',
      searchIndex: 'notes_fts',
      narrowing: ['q'],
      extraFilter: (name, value) => {
        if (name === 'q') return ftsPrefixQuery('notes_fts', 'n.id', value);
        // `includes` is accepted and ignored, as the spec says the real service does.
        if (name === 'includes') return { sql: '1 = 1', params: [] };
        return undefined;
      },
    };
    removeLinkedOnDelete(ctx, 'notes', (id, actorId) => this.store.remove(id, actorId));
  }

  json(id: number, actor: Actor): string {
    const json = this.visibleJson.get(id, actor.userId) as string | undefined;
    if (json === undefined) throw notFound('note', id);
    return json;
  }

  listPage(query: RawQuery, actor: Actor): ListPage {
    return runList({ ...this.list, scope: [{ sql: VISIBLE, params: [actor.userId] }] }, query, this.ctx.statements);
  }

  create(data: Record<string, unknown>, actor: Actor): number {
    const { values, errors } = checkFields('note', FIELDS, data);
    const row = this.apply({ is_important: 0, tags: '[]', type: 'regular' }, values, errors, true);
    return this.store.insert(row, { creator_id: actor.userId }, actor.userId, () => this.ensureTags(row, actor));
  }

  update(id: number, data: Record<string, unknown>, actor: Actor): void {
    const current = this.changeable(id, actor);
    const { values, errors } = checkFields('note', FIELDS, data);
    const row = this.apply({ ...current }, values, errors, false);
    this.store.update(id, row, actor.userId, () => this.ensureTags(row, actor));
  }

  delete(id: number, actor: Actor): void {
    this.changeable(id, actor);
    this.store.remove(id, actor.userId);
  }

  /** The note, if the actor may change it: 404 when they cannot see it, 403 when it is someone else's (admins excepted). */
  private changeable(id: number, actor: Actor): NoteRow {
    const current = this.visibleRow.get(id, actor.userId) as NoteRow | undefined;
    if (!current) throw notFound('note', id);
    requireAuthorOrAdmin(actor, current.creator_id, 'note');
    return current;
  }

  /** A note's tags are tags of the record it is about: the ones that do not exist yet are created. */
  private ensureTags(row: Partial<NoteRow>, actor: Actor): void {
    this.tagging.ensure(row.resource_type as TaggableType, JSON.parse(row.tags ?? '[]') as string[], actor.userId);
  }

  private apply(row: Partial<NoteRow>, values: Record<string, unknown>, errors: FieldErrors, creating: boolean): Partial<NoteRow> {
    const out: Partial<NoteRow> = { ...row };
    for (const field of ['resource_type', 'resource_id', 'content', 'type'] as const) {
      if (values[field] !== undefined) (out as Record<string, unknown>)[field] = values[field];
    }
    if (values.is_important !== undefined) out.is_important = values.is_important ? 1 : 0;
    if (values.tags !== undefined) out.tags = JSON.stringify([...new Set((values.tags as string[] | null) ?? [])].sort());
    if (!errors.has('/content')) {
      if (creating && values.content === undefined) errors.add('/content', 'missing', 'content is required.');
      else if (values.content !== undefined && isBlank(values.content)) errors.add('/content', 'blank', "content can't be blank.");
    }
    checkResourceLink(this.ctx.db, out, errors, { required: true, changed: creating || values.resource_type !== undefined || values.resource_id !== undefined });
    errors.throwIfAny();
    return out;
  }
}
