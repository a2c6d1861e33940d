import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { openEngine, type Engine } from '../../electron/engine/engine.js';
import { createHttpApp, type HttpOptions } from '../../electron/engine/http/app.js';
import { ManualClock } from '../../electron/engine/clock.js';
import type { Scope } from '../../shared/oauth.js';
import { checkAnswer } from './openapiCheck.js';

/**
 * A real engine on a real SQLite file in a temp folder, served over real
 * HTTP on 127.0.0.1, with an admin and an agent and a token for each. Under
 * vitest.postgres.config.ts the engine runs on a PostgreSQL database of its
 * own instead, in the run's throwaway cluster.
 */
export interface TestHub {
  engine: Engine;
  app: FastifyInstance;
  clock: ManualClock;
  url: string;
  dataDir: string;
  adminId: number;
  agentId: number;
  adminToken: string;
  agentToken: string;
  tokenFor(userId: number, scopes?: Scope[]): string;
  close(): Promise<void>;
}

export const ADMIN = { email: 'admin@example.com', password: 'admin-secret-1', name: 'Ada Admin' };
export const AGENT = { email: 'agent@example.com', password: 'agent-secret-1', name: 'Sam Agent' };

/** `port`: 0 for any; a hub a test takes down and brings back needs one of `stablePort()` (ports.ts). */
export async function startTestHub(options: HttpOptions = {}, { port = 0 } = {}): Promise<TestHub> {
  const dataDir = mkdtempSync(join(tmpdir(), 'outpost-test-'));
  const clock = new ManualClock('2026-03-02T10:00:00Z');
  const database = await testDatabase();
  const engine = openEngine({ dataDir, clock, databaseUrl: database?.url });
  const adminId = await engine.users.create({ ...ADMIN, role: 'admin' });
  const agentId = await engine.users.create({ ...AGENT, role: 'user' });
  // OUTPOST_TEST_LOG_ERRORS=1 prints the hub's unhandled errors (a 500's cause) while a test is written or fixed.
  const logger = process.env.OUTPOST_TEST_LOG_ERRORS ? { logger: { level: 'error' } } : {};
  const app = await createHttpApp(engine, { rateLimitPerHour: 0, ...logger, ...options } as HttpOptions);
  const url = await app.listen({ host: '127.0.0.1', port });
  const tokenFor = (userId: number, scopes: Scope[] = ['read', 'write', 'profile']) => engine.tokens.createPersonal(userId, scopes);
  return {
    engine, app, clock, url, dataDir, adminId, agentId,
    adminToken: tokenFor(adminId),
    agentToken: tokenFor(agentId),
    tokenFor,
    close: async () => {
      await app.close();
      engine.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let databases = 0;

/** A fresh database in the PostgreSQL cluster of the run, when the suite runs on PostgreSQL (else undefined). */
async function testDatabase(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const cluster = process.env.OUTPOST_TEST_POSTGRES_URL;
  if (!cluster) return undefined;
  const name = `hub_${process.pid}_${++databases}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: cluster });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(cluster);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE ${name} WITH (FORCE)`) };
}

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A small HTTP client over fetch: JSON bodies are wrapped as `{"data": …}` unless `raw` is given. */
export async function call<T = any>(
  hub: Pick<TestHub, 'url'>, method: string, path: string,
  options: { token?: string | null; data?: unknown; raw?: string; contentType?: string; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.data !== undefined) body = JSON.stringify({ data: options.data });
  if (body !== undefined || options.contentType) headers['Content-Type'] = options.contentType ?? 'application/json';
  const response = await fetch(`${hub.url}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  // Checked against the hub's OpenAPI document when checks are on (openapiCheck.ts: OUTPOST_OPENAPI_CHECK=1, or a test recording).
  await checkAnswer(hub.url, { method, path, status: response.status, contentType: response.headers.get('content-type'), text, body: parsed });
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** The error codes of an error envelope, in order. */
export const codes = (answer: Answer) => (answer.body?.errors ?? []).map((e: any) => e.error.code);
export const fields = (answer: Answer) => (answer.body?.errors ?? []).map((e: any) => e.error.field);
