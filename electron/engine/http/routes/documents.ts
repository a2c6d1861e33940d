import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine.js';
import { actorOf } from '../auth.js';
import { idParam, queryOf, requestUrl, sendPage, sendResource } from '../reply.js';
import { invalidParam, notFound, problem } from '../../problems.js';
import type { Replica } from '../../replica/replica.js';
import { HubUnreachableError } from '../../replica/hubUnreachable.js';
import { intParam, single } from '../../resources/params.js';
import { MAX_DOCUMENT_BYTES } from '../../resources/documents.js';

/**
 * Documents under /v2 (authenticated): list, retrieve, and upload (an
 * extension: the file is the raw request body, its type the Content-Type).
 */
export async function documentRoutes(app: FastifyInstance, engine: Engine): Promise<void> {
  const origin = (url: URL) => url.origin;
  app.get('/v2/documents', async (request, reply) =>
    sendPage(request, reply, 'document', engine.documents.listPage(queryOf(request), origin(requestUrl(request)))));
  app.get('/v2/documents/:id', async (request, reply) =>
    sendResource(reply, 'document', engine.documents.json(idParam(request, 'document'), origin(requestUrl(request)))));

  await app.register(async (uploads) => {
    // Files arrive as they are: any content type, up to 25 MiB.
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_DOCUMENT_BYTES }, (_request, body, done) => done(null, body));
    uploads.post('/v2/documents', { bodyLimit: MAX_DOCUMENT_BYTES }, async (request, reply) => {
      const query = queryOf(request);
      const known = new Set(['resource_type', 'resource_id', 'name']);
      const unknown = Object.keys(query).find((k) => !known.has(k));
      if (unknown) throw invalidParam(unknown, 'unknown parameter');
      const [type, id, name] = ['resource_type', 'resource_id', 'name'].map((k) => single(query, k));
      if (!type || !id || !name) throw invalidParam(!type ? 'resource_type' : !id ? 'resource_id' : 'name', 'required');
      const content = request.body instanceof Uint8Array ? request.body : new Uint8Array(0);
      const contentType = (request.headers['content-type'] ?? 'application/octet-stream').split(';')[0].trim() || 'application/octet-stream';
      const documentId = engine.documents.create({ resource_type: type, resource_id: intParam('resource_id', id), name, content_type: contentType, content }, actorOf(request));
      return sendResource(reply, 'document', engine.documents.json(documentId, origin(requestUrl(request))));
    });
  });
}

/** The signed download link: no token needed, the signature is the permission. */
export function downloadRoutes(app: FastifyInstance, engine: Engine, replica?: Replica): void {
  app.get('/downloads/documents/:id', async (request, reply) => {
    const { expires, signature } = request.query as Record<string, string | undefined>;
    if (typeof expires !== 'string' || typeof signature !== 'string') throw problem('forbidden', 'This download link is not valid.');
    const id = idParam(request, 'document');
    const file = engine.documents.download(id, expires, signature);
    // On a replica the file is the hub's: fetched from it now (the link was checked here first).
    const content = file.content ?? (replica ? await hubFile(replica, id) : null);
    if (content === null) throw notFound('document', id);
    return reply
      .type(servedType(file.contentType))
      .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', DOWNLOAD_POLICY)
      .header('Cache-Control', 'private, no-store')
      .send(content);
  });
}

/**
 * Types a browser only decodes and shows, running nothing, even when it
 * renders the file from the hub's origin: raster images (not SVG, which
 * carries script), PDF and plain text. Any other uploaded type (HTML,
 * JavaScript, SVG…) would be stored XSS on that origin.
 */
const SAFE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain']);

/**
 * Should a browser render a download anyway (the file is always an
 * attachment): a sandbox (a unique origin, no scripts, no forms) that loads
 * nothing, from the hub or elsewhere. An image or a PDF needs nothing beyond
 * its own bytes; inline styles stay allowed for the markup browsers' own
 * image and text viewers generate (GitHub's raw files use the same policy).
 */
const DOWNLOAD_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * The Content-Type a download is served with: the uploaded type when it is
 * safe (text with an explicit charset, so no browser guesses one), else bytes.
 * The document's JSON keeps the type as uploaded.
 */
function servedType(uploaded: string): string {
  const type = uploaded.trim().toLowerCase();
  if (!SAFE_TYPES.has(type)) return 'application/octet-stream';
  return type === 'text/plain' ? 'text/plain; charset=utf-8' : type;
}

/** A document's file from the replica's hub; null when the hub has no such document. */
async function hubFile(replica: Replica, id: number): Promise<Uint8Array | null> {
  try {
    return await replica.documentFile(id);
  } catch (err) {
    if (err instanceof HubUnreachableError) throw problem('temporarily_unavailable', err.message);
    throw err;
  }
}
