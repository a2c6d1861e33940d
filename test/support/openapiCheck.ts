import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/**
 * Checks a hub's answers against the OpenAPI document the hub serves
 * (/v2/openapi.json): the status must be one the operation documents, and
 * the body must be of the documented media type and, for JSON, valid against
 * the documented schema (ajv, JSON Schema 2020-12: OpenAPI 3.1's dialect).
 *
 * test/support/testHub.ts `call()` runs every answer through here while
 * checks are on: with OUTPOST_OPENAPI_CHECK=1 for a whole run (a mismatch
 * then fails the test that got the answer), or from a test with
 * `recordAnswerMismatches()` (test/api/openapi.test.ts).
 */
type Json = Record<string, unknown>;

export interface AnswerToCheck {
  method: string;
  /** The path and query as requested. */
  path: string;
  status: number;
  contentType: string | null;
  text: string;
  body: unknown;
}

export interface Mismatch {
  request: string;
  status: number;
  problem: string;
}

// ajv-formats is CommonJS: its function arrives as the module or under `default`, by loader.
type AddFormats = (ajv: Ajv2020) => unknown;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

interface Route {
  pattern: RegExp;
  /** Literal segments first: `/v2/tasks/counts` before `/v2/tasks/{id}`. */
  params: number;
  path: string;
}

export class OpenApiChecker {
  private readonly ajv: Ajv2020;
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema(document, 'openapi.json');
    this.routes = Object.keys(document.paths as Json).map((path) => ({
      path,
      params: (path.match(/\{/g) ?? []).length,
      pattern: new RegExp(`^${path.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+')}$`),
    })).sort((a, b) => a.params - b.params);
  }

  /** The problem with an answer, or null when the document describes it. */
  check(answer: AnswerToCheck): string | null {
    const url = new URL(answer.path, 'http://hub');
    // /api/v2 paths may end in `.json`, as the real service's links do.
    const pathname = url.pathname.startsWith('/api/v2') ? url.pathname.replace(/\.json$/, '') : url.pathname.replace(/\/$/, '') || '/';
    const method = answer.method.toUpperCase() === 'HEAD' ? 'get' : answer.method.toLowerCase();
    const route = this.routes.find((r) => r.pattern.test(pathname) && (this.document.paths as Record<string, Json>)[r.path][method]);
    if (!route) return this.checkUnrouted(pathname, answer);
    const pointer = `/paths/${escapePointer(route.path)}/${method}/responses`;
    const responses = (this.document.paths as Record<string, Record<string, Json>>)[route.path][method].responses as Record<string, Json>;
    const key = String(answer.status) in responses ? String(answer.status) : 'default' in responses ? 'default' : null;
    if (!key) return `${answer.status} is not a documented answer of ${method.toUpperCase()} ${route.path} (documented: ${Object.keys(responses).join(', ')})`;
    const { response, at } = this.resolveResponse(responses[key], `${pointer}/${escapePointer(key)}`);
    const content = response.content as Record<string, Json> | undefined;
    if (answer.method.toUpperCase() === 'HEAD') return null;
    if (!content) return answer.text === '' ? null : `${answer.status} of ${method.toUpperCase()} ${route.path} is documented without a body, but one came: ${answer.text.slice(0, 200)}`;
    const media = (answer.contentType ?? '').split(';')[0].trim().toLowerCase();
    const documented = Object.keys(content);
    const mediaKey = documented.find((type) => type === media || type === '*/*' || (type.endsWith('/*') && media.startsWith(type.slice(0, -1))));
    if (!mediaKey) return `${answer.status} of ${method.toUpperCase()} ${route.path} came as '${media}', documented: ${documented.join(', ')}`;
    if (!media.endsWith('json') || !content[mediaKey].schema) return null;
    return this.validate(`${at}/content/${escapePointer(mediaKey)}/schema`, answer.body, `${answer.status} of ${method.toUpperCase()} ${route.path}`);
  }

  /** No operation has this path and method: the interface's not-found (or method) answer, in its family's error shape. */
  private checkUnrouted(pathname: string, answer: AnswerToCheck): string | null {
    const support = pathname.startsWith('/api/v2');
    // Outside the interfaces: the web UI's pages and files, no part of the document.
    if (!support && !/^\/(v2|oauth2)(\/|$)/.test(pathname)) return null;
    // 400: a path that is no valid URL (a bad % escape) is refused before routing.
    if (![400, 401, 403, 404, 405].includes(answer.status)) return `no operation ${answer.method} ${pathname} is documented (answered ${answer.status})`;
    const schema = support ? '/components/schemas/SupportError' : `/components/responses/Error${answer.status}/content/application~1json/schema`;
    return this.validate(schema, answer.body, `${answer.status} of undocumented ${answer.method} ${pathname}`);
  }

  private resolveResponse(response: Json, at: string): { response: Json; at: string } {
    const ref = response.$ref as string | undefined;
    if (!ref) return { response, at };
    const path = ref.replace(/^#/, '');
    const target = path.split('/').slice(1).reduce<Json>((node, part) => node[unescapePointer(part)] as Json, this.document);
    return { response: target, at: path };
  }

  private validate(pointer: string, body: unknown, what: string): string | null {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi.json#${pointer}` });
      this.validators.set(pointer, validate);
    }
    if (validate(body)) return null;
    const errors = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} (${e.schemaPath})`).join('; ');
    return `${what} does not match its schema: ${errors}; body: ${JSON.stringify(body)?.slice(0, 300)}`;
  }
}

const escapePointer = (text: string) => text.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (text: string) => text.replace(/~1/g, '/').replace(/~0/g, '~');

const checkers = new Map<string, Promise<OpenApiChecker | null>>();

/** The checker of a hub, from the document it serves (null for an app that serves none: a desktop replica). */
export function checkerFor(url: string): Promise<OpenApiChecker | null> {
  let checker = checkers.get(url);
  if (!checker) {
    checker = fetch(`${url}/v2/openapi.json`).then(async (response) => (response.ok ? new OpenApiChecker(await response.json() as Json) : null));
    checkers.set(url, checker);
  }
  return checker;
}

let recorded: Mismatch[] | null = null;

/** Starts recording mismatches of every answer `call()` gets; the returned list fills as they come. */
export function recordAnswerMismatches(): Mismatch[] {
  recorded = [];
  return recorded;
}

export function stopRecordingAnswerMismatches(): void {
  recorded = null;
}

/** What `call()` runs on each answer: nothing unless checks are on. */
export async function checkAnswer(url: string, answer: AnswerToCheck): Promise<void> {
  const strict = process.env.OUTPOST_OPENAPI_CHECK === '1';
  if (!strict && !recorded) return;
  const checker = await checkerFor(url);
  const problem = checker?.check(answer) ?? null;
  if (!problem) return;
  const mismatch = { request: `${answer.method} ${answer.path}`, status: answer.status, problem };
  recorded?.push(mismatch);
  if (strict) throw new Error(`The answer to ${mismatch.request} is not what /v2/openapi.json documents: ${problem}`);
}
