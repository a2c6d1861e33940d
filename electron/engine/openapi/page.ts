import type { JsonSchema } from './schemas.js';

/**
 * The reference page: the OpenAPI document rendered on the hub as plain HTML
 * and one style sheet, no script, so it reads offline, in any browser, under
 * the strictest policy (REFERENCE_PAGE_POLICY), and needs no bundle of its own.
 */
export const REFERENCE_PAGE_POLICY = "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

type Doc = {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema>; parameters: Record<string, JsonSchema>; responses: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

const escape = (text: unknown) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** The few inline marks the descriptions use: `code`. */
const prose = (text: unknown) => escape(text ?? '').replace(/`([^`]+)`/g, '<code>$1</code>');
const refName = (ref: string) => ref.split('/').pop()!;

export function referencePage(document: JsonSchema, stylesheet: string, jsonPath: string): string {
  const doc = document as unknown as Doc;
  const byTag = new Map<string, { path: string; method: string; op: JsonSchema }[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = (op.tags as string[] | undefined)?.[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), { path, method, op }]);
    }
  }
  const tags = (doc.tags ?? []).filter((t) => byTag.has(t.name));
  const nav = tags.map((t) => `<li><a href="#tag-${slug(t.name)}">${escape(t.name)}</a> <span class="count">${byTag.get(t.name)!.length}</span></li>`).join('');
  const sections = tags.map((t) => `<section class="tag" id="tag-${slug(t.name)}"><h2>${escape(t.name)}</h2>${t.description ? `<p>${prose(t.description)}</p>` : ''}`
    + byTag.get(t.name)!.map(({ path, method, op }) => operationHtml(doc, path, method, op)).join('') + '</section>').join('');
  const schemas = Object.entries(doc.components.schemas).map(([name, schema]) =>
    `<section class="schema" id="schema-${escape(name)}"><h3>${escape(name)}</h3>${schema.description ? `<p>${prose(schema.description)}</p>` : ''}${schemaHtml(doc, schema, 0)}</section>`).join('');
  const security = Object.entries(doc.components.securitySchemes).map(([name, s]) =>
    `<dt><code>${escape(name)}</code> (${escape(s.type)}${s.scheme ? ` ${escape(s.scheme)}` : ''})</dt><dd>${prose(s.description ?? '')}${scopesHtml(s)}</dd>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(doc.info.title)} — reference</title><link rel="stylesheet" href="${escape(stylesheet)}"></head>
<body><nav class="side"><p class="brand">${escape(doc.info.title)} <span class="version">${escape(doc.info.version)}</span></p>
<ul>${nav}<li><a href="#security">Authentication</a></li><li><a href="#schemas">Schemas</a></li></ul></nav>
<main><header><h1>${escape(doc.info.title)}</h1><p>${prose(doc.info.description ?? '')}</p>
<p class="links"><a href="${escape(jsonPath)}">OpenAPI document (JSON)</a> · <a href="/docs/api">The API guide</a></p></header>
${sections}
<section id="errors"><h2>Errors</h2><p>Every <code>/v2</code> error answers the envelope below; its codes by status:</p>${errorsHtml(doc)}</section>
<section id="security"><h2>Authentication</h2><dl>${security}</dl></section>
<section id="schemas"><h2>Schemas</h2>${schemas}</section></main></body></html>`;
}

function operationHtml(doc: Doc, path: string, method: string, op: JsonSchema): string {
  const params = ((op.parameters ?? []) as JsonSchema[]).map((p) => resolve(doc, p));
  const paramRows = params.map((p) => `<tr><td><code>${escape(p.name)}</code>${p.required ? ' <span class="req">required</span>' : ''}</td><td>${escape(p.in)}</td><td>${typeHtml(doc, p.schema as JsonSchema)}</td><td>${prose(p.description ?? '')}</td></tr>`).join('');
  const body = op.requestBody as JsonSchema | undefined;
  const responses = Object.entries(op.responses as Record<string, JsonSchema>).map(([status, answer]) => {
    const r = resolve(doc, answer);
    if (answer.$ref) return '';
    const content = r.content as Record<string, { schema?: JsonSchema }> | undefined;
    const [type, media] = content ? Object.entries(content)[0] : [];
    const detail = media?.schema ? `<details><summary>${escape(type)}</summary>${schemaHtml(doc, media.schema, 0)}</details>` : type ? ` <code>${escape(type)}</code>` : '';
    return `<li><span class="status s${escape(status[0])}">${escape(status)}</span> ${prose(r.description ?? '')}${detail}</li>`;
  }).join('');
  // Shared error answers are described once (Errors); here their statuses only.
  const errors = Object.entries(op.responses as Record<string, JsonSchema>).filter(([, answer]) => answer.$ref)
    .map(([status]) => `<a class="status s${escape(status[0])}" href="#errors">${escape(status)}</a>`).join(' ');
  const security = (op.security as JsonSchema[]).map((s) => Object.entries(s).map(([name, scopes]) => `${name}${(scopes as string[]).length ? ` (${(scopes as string[]).join(', ')})` : ''}`).join(' + ')).filter(Boolean);
  return `<article class="op" id="${escape(op.operationId)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${escape(path)}</code> <span class="summary">${escape(op.summary)}</span>${op.deprecated ? ' <span class="req">deprecated</span>' : ''}</h3>
${op.description ? `<p>${prose(op.description)}</p>` : ''}
<p class="auth">${security.length ? `Authentication: ${security.map(escape).join(' or ')}` : 'No authentication.'}</p>
${paramRows ? `<table><thead><tr><th>Parameter</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>${paramRows}</tbody></table>` : ''}
${body ? requestBodyHtml(doc, body) : ''}
<ul class="responses">${responses}${errors ? `<li class="errors">Errors: ${errors}</li>` : ''}</ul></article>`;
}

function errorsHtml(doc: Doc): string {
  const responses = Object.entries(doc.components.responses);
  const rows = responses.filter(([name]) => /^Error\d+$/.test(name))
    .map(([name, r]) => `<tr><td><span class="status s4">${escape(name.replace(/^Error/, ''))}</span></td><td>${prose(r.description ?? '')}</td></tr>`).join('');
  const schemaOf = (r: JsonSchema | undefined) => (r?.content ? Object.values(r.content as Record<string, { schema: JsonSchema }>)[0].schema : undefined);
  const envelope = schemaOf(responses.find(([name]) => /^Error\d+$/.test(name))?.[1]);
  const support = responses.find(([name]) => name === 'SupportError')?.[1];
  return `<table><tbody>${rows}</tbody></table>${envelope ? schemaHtml(doc, envelope, 0) : ''}`
    + (support ? `<p>${prose(support.description)} ${typeHtml(doc, schemaOf(support))}</p>` : '');
}

function requestBodyHtml(doc: Doc, body: JsonSchema): string {
  const content = body.content as Record<string, { schema: JsonSchema }>;
  return Object.entries(content).slice(0, 1).map(([type, media]) =>
    `<details class="body"><summary>Request body <code>${escape(type)}</code></summary>${schemaHtml(doc, media.schema, 0)}</details>`).join('');
}

function scopesHtml(scheme: JsonSchema): string {
  const flows = scheme.flows as Record<string, { scopes: Record<string, string>; authorizationUrl?: string; tokenUrl?: string }> | undefined;
  if (!flows) return '';
  const first = Object.values(flows)[0];
  return `<p>Flows: ${Object.entries(flows).map(([name, f]) => `${escape(name)} (${f.authorizationUrl ? `<code>${escape(f.authorizationUrl)}</code>, ` : ''}<code>${escape(f.tokenUrl)}</code>)`).join('; ')}.</p>`
    + `<ul>${Object.entries(first.scopes).map(([s, d]) => `<li><code>${escape(s)}</code>: ${prose(d)}</li>`).join('')}</ul>`;
}

function resolve(doc: Doc, value: JsonSchema): JsonSchema {
  const ref = value.$ref as string | undefined;
  if (!ref) return value;
  const [, , kind, name] = ref.split('/');
  return (doc.components as unknown as Record<string, Record<string, JsonSchema>>)[kind]?.[name] ?? value;
}

/** A one-line type: `string | null`, `array of Contact`, `"a" | "b"`. */
function typeHtml(doc: Doc, schema: JsonSchema | undefined): string {
  if (!schema) return 'any';
  if (schema.$ref) return `<a href="#schema-${escape(refName(schema.$ref as string))}">${escape(refName(schema.$ref as string))}</a>`;
  if (schema.const !== undefined) return `<code>${escape(JSON.stringify(schema.const))}</code>`;
  if (schema.enum) return (schema.enum as unknown[]).map((v) => `<code>${escape(JSON.stringify(v))}</code>`).join(' | ');
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives) return alternatives.map((s) => typeHtml(doc, s)).join(' | ');
  if (schema.allOf) return (schema.allOf as JsonSchema[]).map((s) => typeHtml(doc, s)).join(' & ');
  const types = [schema.type ?? (schema.properties ? 'object' : 'any')].flat() as string[];
  const text = types.map((t) => (t === 'array' ? `array of ${typeHtml(doc, schema.items as JsonSchema)}` : escape(t))).join(' | ');
  return schema.format ? `${text} <span class="fmt">(${escape(schema.format)})</span>` : text;
}

function constraints(given: JsonSchema): string {
  const notes: string[] = [];
  // `string | null` and the like: the constraints are the non-null alternative's.
  const alternatives = ((given.anyOf ?? []) as JsonSchema[]).filter((s) => s.type !== 'null');
  const schema = alternatives.length === 1 ? { ...alternatives[0], ...given } : given;
  if (schema.maxLength !== undefined) notes.push(`at most ${schema.maxLength} characters`);
  if (schema.minLength !== undefined) notes.push(`at least ${schema.minLength} characters`);
  if (schema.minimum !== undefined && Math.abs(schema.minimum as number) < 1e15) notes.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined && Math.abs(schema.maximum as number) < 1e15) notes.push(`≤ ${schema.maximum}`);
  if (schema.maxItems !== undefined) notes.push(`at most ${schema.maxItems} items`);
  if (schema.pattern) notes.push(`matches <code>${escape(schema.pattern)}</code>`);
  if (schema.readOnly) notes.push('read-only');
  if (schema.default !== undefined) notes.push(`default <code>${escape(JSON.stringify(schema.default))}</code>`);
  return notes.join(', ');
}

/** An object's properties as a table (nested objects inside, a few levels deep); other schemas as their type. */
function schemaHtml(doc: Doc, schema: JsonSchema, depth: number): string {
  if (schema.$ref) return `<p>${typeHtml(doc, schema)}</p>`;
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (!properties || Object.keys(properties).length === 0) {
    return `<p class="type">${typeHtml(doc, schema)}${schema.description && depth > 0 ? ` — ${prose(schema.description)}` : ''}</p>`;
  }
  const required = new Set((schema.required ?? []) as string[]);
  const rows = Object.entries(properties).map(([name, prop]) => {
    const nested = depth < 3 && prop.properties && Object.keys(prop.properties as object).length ? schemaHtml(doc, prop, depth + 1) : '';
    const note = [prose(prop.description ?? ''), constraints(prop)].filter(Boolean).join(' · ');
    return `<tr><td><code>${escape(name)}</code>${required.has(name) ? ' <span class="req">required</span>' : ''}</td><td>${nested ? 'object' : typeHtml(doc, prop)}</td><td>${note}${nested}</td></tr>`;
  }).join('');
  const closed = schema.additionalProperties === false ? '<p class="fmt">No other attributes.</p>' : '';
  return `<table class="props"><tbody>${rows}</tbody></table>${closed}`;
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

export const REFERENCE_CSS = `
:root { color-scheme: light; --ink: #1d2330; --muted: #5b6475; --line: #dde2ea; --accent: #2456c7; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); }
body { margin: 0; display: grid; grid-template-columns: 16rem 1fr; }
nav.side { position: sticky; top: 0; height: 100vh; overflow: auto; border-right: 1px solid var(--line); padding: 1rem; background: #f7f8fb; box-sizing: border-box; }
nav.side ul { list-style: none; padding: 0; margin: 0; }
nav.side li { margin: .2rem 0; }
nav a { color: var(--ink); text-decoration: none; }
nav a:hover { color: var(--accent); }
.brand { font-weight: 700; margin-top: 0; }
.version, .count { color: var(--muted); font-weight: 400; font-size: .85em; }
main { padding: 1rem 2rem 4rem; max-width: 70rem; min-width: 0; }
h1 { margin-top: .5rem; }
h2 { border-bottom: 2px solid var(--line); padding-bottom: .3rem; margin-top: 2.5rem; }
article.op { border: 1px solid var(--line); border-radius: 6px; padding: .6rem 1rem; margin: 1rem 0; }
article.op h3 { font-size: 1rem; margin: .2rem 0; display: flex; gap: .5rem; align-items: baseline; flex-wrap: wrap; }
.method { font: 700 .75rem/1 ui-monospace, monospace; padding: .3rem .45rem; border-radius: 4px; color: #fff; min-width: 3.2rem; text-align: center; }
.get { background: #2f7d4f; } .post { background: #2456c7; } .put { background: #9a6a00; } .patch { background: #7a4bb3; } .delete { background: #b8322a; }
.path { font-size: .95rem; word-break: break-all; }
.summary { color: var(--muted); font-weight: 400; }
.auth { color: var(--muted); font-size: .85rem; margin: .2rem 0; }
code { font: .85em ui-monospace, SFMono-Regular, Menlo, monospace; background: #f1f3f7; padding: 0 .2rem; border-radius: 3px; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; font-size: .88rem; }
th, td { border-top: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
table.props td:first-child { white-space: nowrap; width: 1%; }
.req { color: #b8322a; font-size: .75rem; }
.fmt { color: var(--muted); font-size: .85em; }
details { margin: .3rem 0; }
summary { cursor: pointer; color: var(--accent); }
ul.responses { list-style: none; padding: 0; margin: .4rem 0; }
ul.responses li { margin: .25rem 0; }
.status { font: 700 .8rem ui-monospace, monospace; padding: .1rem .35rem; border-radius: 3px; background: #eef0f4; }
.s2 { background: #dcf1e3; color: #1f5c38; } .s3 { background: #e6ecfa; } .s4 { background: #fbe7d9; color: #8a3b0b; } .s5 { background: #f9dcda; color: #8a1f18; }
section.schema { margin: 1.5rem 0; }
dt { font-weight: 600; margin-top: .6rem; }
@media (max-width: 800px) { body { display: block; } nav.side { position: static; height: auto; border-right: 0; border-bottom: 1px solid var(--line); } main { padding: 1rem; } }
`;
