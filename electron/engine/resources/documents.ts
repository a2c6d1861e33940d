import { hmacSha256, sha256Hex, timingSafeEqual } from '../platform/crypto.js';
import { fromHex, toHex } from '../bytes.js';
import type { Actor, EngineContext } from '../context.js';
import { FieldErrors, invalidParam, notFound, problem } from '../problems.js';
import { runList, type ListDefinition, type ListPage } from './listing.js';
import { enumParam, idListParam, single, type RawQuery } from './params.js';
import { jsonObject } from '../db/sqlJson.js';
import { checkResourceLink, removeLinkedOnDelete } from './resourceLinks.js';
import { RecordStore } from './recordStore.js';
import { hubSecret } from '../auth/secrets.js';
import { DOCUMENT_RESOURCE_TYPES } from '../../../shared/resources/document.js';
import type { SyncSource } from '../sync/sources.js';
import { documentContents, type DocumentContents } from './documentContents.js';

/** Download links are valid 90 minutes (spec: Limits). */
export const DOWNLOAD_LINK_SECONDS = 90 * 60;
export const MAX_DOCUMENT_BYTES = 25 * 1024 * 1024;

const DOCUMENT_JSON = jsonObject({
  id: 'f.id', resource_type: 'f.resource_type', resource_id: 'f.resource_id', creator_id: 'f.creator_id',
  name: 'f.name', content_type: 'f.content_type', size: 'f.size', created_at: 'f.created_at', updated_at: 'f.updated_at',
});

export const LIST: ListDefinition = {
  resource: 'document',
  from: 'documents f',
  json: DOCUMENT_JSON,
  idColumn: 'f.id',
  filters: { name: { kind: 'string', column: 'f.name' } },
  sorts: { id: 'f.id', created_at: 'f.created_at', updated_at: 'f.updated_at' },
  defaultOrder: 'f.id ASC',
  extraFilter: (name, value) => {
    if (name === 'resource_type') {
      const types = value.split(',').map((t) => enumParam(name, t.trim(), DOCUMENT_RESOURCE_TYPES));
      return { sql: `f.resource_type IN (${types.map(() => '?').join(',')})`, params: types };
    }
    if (name === 'resource_id') {
      const ids = idListParam(name, value);
      return { sql: `f.resource_id IN (${ids.map(() => '?').join(',')})`, params: ids };
    }
    return undefined;
  },
  narrowing: ['resource_type', 'resource_id'],
};

export interface Upload {
  resource_type: string;
  resource_id: number;
  name: string;
  content_type: string;
  content: Uint8Array;
}

/**
 * Documents: files attached to records, served through signed links that
 * expire after 90 minutes. Their bytes are kept apart from their records, in
 * the data folder or in the PostgreSQL database (documentContents.ts).
 * The spec's API is read-only; uploading is an Outpost extension.
 */
export class Documents {
  private readonly store: RecordStore;
  private readonly contents: DocumentContents;
  private readonly key: Uint8Array;

  constructor(private readonly ctx: EngineContext, dataDir: string) {
    this.store = new RecordStore(ctx, 'documents', 'document', ['resource_type', 'resource_id', 'name', 'content_type', 'size', 'sha256']);
    this.contents = documentContents(ctx, dataDir);
    this.key = hubSecret(ctx, 'download_links');
    removeLinkedOnDelete(ctx, 'documents', (id, actorId) => this.remove(id, actorId));
  }

  /** Documents as devices receive them (sync/), each with a fresh download link. */
  get syncSource(): SyncSource {
    return { type: 'document', from: 'documents f', idColumn: 'f.id', json: DOCUMENT_JSON, decorate: (json, origin) => this.withLink(json, origin) };
  }

  /** The document with a fresh download link under `origin`. */
  json(id: number, origin: string): string {
    const json = this.ctx.db.prepare(`SELECT ${DOCUMENT_JSON} FROM documents f WHERE f.id = ?`).pluck().get(id) as string | undefined;
    if (json === undefined) throw notFound('document', id);
    return this.withLink(json, origin);
  }

  /** `resource_type` and `resource_id` are required (comma-separated lists), as the spec says. */
  listPage(query: RawQuery, origin: string): ListPage {
    for (const name of ['resource_type', 'resource_id']) {
      if (single(query, name) === undefined) throw invalidParam(name, 'required');
    }
    const page = runList(LIST, query, this.ctx.statements);
    return { ...page, rows: page.rows.map((row) => this.withLink(row, origin)) };
  }

  create(upload: Upload, actor: Actor): number {
    const errors = new FieldErrors('document');
    if (!(DOCUMENT_RESOURCE_TYPES as readonly string[]).includes(upload.resource_type)) {
      errors.add('/resource_type', 'incorrect_value', `resource_type must be one of: ${DOCUMENT_RESOURCE_TYPES.join(', ')}.`);
    }
    checkResourceLink(this.ctx.db, upload, errors, { required: true, changed: true });
    const name = upload.name.trim().replace(/[/\\\0]/g, '_').slice(0, 255);
    if (!name) errors.add('/name', 'blank', "name can't be blank.");
    if (upload.content.length === 0) errors.add('/content', 'blank', 'The file is empty.');
    errors.throwIfAny();
    const sha256 = sha256Hex(upload.content);
    const row = { ...upload, name, size: upload.content.length, sha256 };
    return this.store.insert(row, { creator_id: actor.userId }, actor.userId, (id) => {
      // Written inside the transaction: if the write fails, the record is rolled back too.
      this.contents.write(id, upload.content);
    });
  }

  /**
   * The file behind a signed link, or a 403 when the link is forged or expired.
   * `content` is null when the file is not here: a replica keeps documents'
   * records, and their files stay on the hub.
   */
  download(id: number, expires: string, signature: string): { name: string; contentType: string; content: Uint8Array | null } {
    if (!timingSafeEqual(fromHex(signature), this.sign(id, expires))) throw problem('forbidden', 'This download link is not valid.');
    if (!/^\d+$/.test(expires) || Number(expires) * 1000 < this.ctx.clock.now().getTime()) {
      throw problem('forbidden', 'This download link has expired; fetch the document again for a fresh link.');
    }
    const row = this.ctx.db.prepare('SELECT name, content_type FROM documents WHERE id = ?').get(id) as { name: string; content_type: string } | undefined;
    if (!row) throw notFound('document', id);
    return { name: row.name, contentType: row.content_type, content: this.contents.read(id) };
  }

  private remove(id: number, actorId: number): void {
    this.store.remove(id, actorId);
    this.contents.remove(id);
  }

  private sign(id: number, expires: string): Uint8Array {
    return hmacSha256(this.key, `document:${id}:${expires}`);
  }

  private withLink(json: string, origin: string): string {
    const document = JSON.parse(json) as { id: number };
    const expires = String(Math.floor(this.ctx.clock.now().getTime() / 1000) + DOWNLOAD_LINK_SECONDS);
    const signature = toHex(this.sign(document.id, expires));
    return JSON.stringify({ ...document, download_url: `${origin}/downloads/documents/${document.id}?expires=${expires}&signature=${signature}` });
  }
}
