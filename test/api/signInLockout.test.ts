import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT, startTestHub, type TestHub } from '../support/testHub.js';
import { basic } from '../support/supportApi.js';
import { openConsent } from '../support/consentForm.js';
import { FIRST_PARTY_CLIENT_ID } from '../../shared/oauth.js';
import {
  MAX_FAILED_SIGN_INS, MAX_FAILED_SIGN_INS_PER_SOURCE, SIGN_IN_WINDOW_SECONDS, slowDownMs,
} from '../../electron/engine/auth/signIn.js';

/**
 * The sign-in lockout by email and source, over real HTTP: the hub
 * listens on 127.0.0.1 and each client binds to another loopback address
 * (all of 127.0.0.0/8 is loopback on Linux), which the hub sees as the
 * request's source. Each test has its own emails and sources, so the counts
 * of one cannot lock another's. Time moves on the engine's clock; the
 * email-wide slow down is real waiting, asserted by a minimum only.
 */
let hub: TestHub;
let consentClient: { client_id: string; redirect_uri: string };

beforeAll(async () => {
  hub = await startTestHub();
  consentClient = hub.engine.clients.register({ name: 'Lockout Add-on', redirect_uri: 'https://addon.example/callback' });
});
afterAll(() => hub.close());

interface Reply {
  status: number;
  retryAfter: string | undefined;
  body: any;
  /** From sending the request to the end of the answer. */
  ms: number;
}

/** One request from `from` (a loopback address the client binds to), on a connection of its own. */
function send(from: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  const { hostname, port } = new URL(hub.url);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request({ host: hostname, port, path, method, headers, localAddress: from, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        const parsed = response.headers['content-type']?.includes('json') ? JSON.parse(text) : text;
        resolve({ status: response.statusCode!, retryAfter: response.headers['retry-after'] as string | undefined, body: parsed, ms: performance.now() - started });
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

const FORM = 'application/x-www-form-urlencoded';

/** The built-in app's password grant. */
const passwordGrant = (from: string, email: string, password: string) =>
  send(from, 'POST', '/oauth2/token', { Authorization: basic(FIRST_PARTY_CLIENT_ID, ''), 'Content-Type': FORM },
    new URLSearchParams({ grant_type: 'password', username: email, password }).toString());

/** HTTP Basic on the custom-objects interface (/api/v2). */
const basicCall = (from: string, email: string, password: string) =>
  send(from, 'GET', '/api/v2/custom_objects', { Authorization: basic(email, password), Accept: 'application/json' });

/** The consent page's form approved from `from` (the page itself is fetched from 127.0.0.1, which checks no password). */
async function consent(from: string, email: string, password: string): Promise<Reply> {
  const page = await openConsent(hub.url, { response_type: 'code', client_id: consentClient.client_id, redirect_uri: consentClient.redirect_uri, state: 's' });
  const form = new URLSearchParams({ ...page.hidden, username: email, password, decision: 'approve' }).toString();
  return send(from, 'POST', '/oauth2/authorize', { 'Content-Type': FORM, Cookie: `outpost_csrf=${page.cookie}` }, form);
}

async function newUser(name: string) {
  const user = { email: `${name}@example.com`, password: `${name}-password-1` };
  await hub.engine.users.create({ ...user, name, role: 'user' });
  return user;
}

/** This email's recorded failures per source. */
function failuresBySource(email: string): Record<string, number> {
  const rows = hub.engine.db
    .prepare('SELECT source, count(*) AS failures FROM sign_in_failures WHERE email = ? GROUP BY source ORDER BY source')
    .all(email) as { source: string; failures: number | string }[];
  return Object.fromEntries(rows.map((row) => [row.source, Number(row.failures)]));
}

const WRONG = 'The email or password is incorrect.';
const EMAIL_LOCKED = 'Too many failed sign-ins for this email: try again in 15 minutes.';
const ADDRESS_LOCKED = 'Too many failed sign-ins from this address: try again in 15 minutes.';

function expectWrong(reply: Reply) {
  expect([reply.status, reply.body.error, reply.body.error_description, reply.retryAfter]).toEqual([400, 'invalid_grant', WRONG, undefined]);
}
function expectLocked(reply: Reply, message: string) {
  expect([reply.status, reply.body.error, reply.body.error_description]).toEqual([400, 'invalid_grant', message]);
  expect(Number(reply.retryAfter)).toBe(SIGN_IN_WINDOW_SECONDS);
}

describe('sign-in lockout by email and source', () => {
  it(`locks an email for the source of ${MAX_FAILED_SIGN_INS} failures only: the owner signs in from another address`, async () => {
    const owner = await newUser('owner');
    const [attacker, home] = ['127.0.0.2', '127.0.0.3'];
    for (let i = 1; i < MAX_FAILED_SIGN_INS; i++) expectWrong(await passwordGrant(attacker, owner.email, `guess-${i}`));
    expectLocked(await passwordGrant(attacker, owner.email, 'guess-last'), EMAIL_LOCKED);
    // The hub saw the client's bound address as the source.
    expect(failuresBySource(owner.email)).toEqual({ [attacker]: MAX_FAILED_SIGN_INS });

    // From the attacker's address the right password is refused, by every way of signing in.
    expectLocked(await passwordGrant(attacker, owner.email, owner.password), EMAIL_LOCKED);
    const viaBasic = await basicCall(attacker, owner.email, owner.password);
    expect([viaBasic.status, viaBasic.body]).toEqual([429, { error: 'TooManyRequests', description: EMAIL_LOCKED }]);
    expect(Number(viaBasic.retryAfter)).toBe(SIGN_IN_WINDOW_SECONDS);
    const viaConsent = await consent(attacker, owner.email, owner.password);
    expect(viaConsent.status).toBe(429);
    expect(viaConsent.body).toContain('Too many failed sign-ins for this email');

    // From the owner's address the right password signs in on the first try, by every way,
    // after the email-wide wait (the email has MAX_FAILED_SIGN_INS failures).
    for (const signIn of [passwordGrant, basicCall, consent]) {
      const reply = await signIn(home, owner.email, owner.password);
      expect(reply.status, signIn.name).toBe(signIn === consent ? 302 : 200);
      expect(reply.ms, signIn.name).toBeGreaterThanOrEqual(slowDownMs(MAX_FAILED_SIGN_INS));
    }
    expect((await passwordGrant(home, owner.email, owner.password)).body.access_token).toEqual(expect.any(String));

    // The owner's successes did not unlock the attacker's address; the window passing does.
    expectLocked(await passwordGrant(attacker, owner.email, owner.password), EMAIL_LOCKED);
    hub.clock.advance(SIGN_IN_WINDOW_SECONDS * 1000);
    expect((await passwordGrant(attacker, owner.email, owner.password)).status).toBe(200);
  });

  it(`locks a source for every email after ${MAX_FAILED_SIGN_INS_PER_SOURCE} failures across emails (password spraying)`, async () => {
    const [sprayer, other] = ['127.0.0.4', '127.0.0.5'];
    // One guess per email, unknown emails counted alike: no pair comes near its own lock.
    for (let i = 1; i < MAX_FAILED_SIGN_INS_PER_SOURCE; i++) expectWrong(await passwordGrant(sprayer, `sprayed-${i}@example.com`, 'Summer2026!'));
    expectLocked(await passwordGrant(sprayer, 'sprayed-last@example.com', 'Summer2026!'), ADDRESS_LOCKED);

    // A fresh email from that source is refused, even with its right password...
    expectLocked(await passwordGrant(sprayer, AGENT.email, AGENT.password), ADDRESS_LOCKED);
    const viaBasic = await basicCall(sprayer, AGENT.email, AGENT.password);
    expect([viaBasic.status, viaBasic.body]).toEqual([429, { error: 'TooManyRequests', description: ADDRESS_LOCKED }]);
    // ...and not recorded as that email's failure; other sources are not affected.
    expect(failuresBySource(AGENT.email)).toEqual({});
    expect((await passwordGrant(other, AGENT.email, AGENT.password)).status).toBe(200);
  });

  it('slows an email down after failures from many sources, more with each, without ever locking it', async () => {
    const sought = await newUser('sought');
    const source = (n: number) => `127.0.1.${n}`;
    for (let n = 1; n <= MAX_FAILED_SIGN_INS; n++) expectWrong(await passwordGrant(source(n), sought.email, `guess-${n}`));

    // Past the email's tolerated failures each try waits, from a clean source too, and the wait grows.
    const sixth = await passwordGrant(source(6), sought.email, 'guess-6');
    expectWrong(sixth);
    expect(sixth.ms).toBeGreaterThanOrEqual(slowDownMs(MAX_FAILED_SIGN_INS));
    const seventh = await passwordGrant(source(7), sought.email, 'guess-7');
    expectWrong(seventh);
    expect(seventh.ms).toBeGreaterThanOrEqual(slowDownMs(MAX_FAILED_SIGN_INS + 1));

    // The owner, from an address of their own, is slowed down but gets in.
    const owner = await passwordGrant(source(8), sought.email, sought.password);
    expect(owner.status).toBe(200);
    expect(owner.ms).toBeGreaterThanOrEqual(slowDownMs(MAX_FAILED_SIGN_INS + 2));
  });

  it('waits 1 s past the tolerated failures, doubling, capped at 5 s', () => {
    const waits = [0, 1, 4, 5, 6, 7, 8, 50].map((failures) => [failures, slowDownMs(failures)]);
    expect(waits).toEqual([[0, 0], [1, 0], [4, 0], [5, 1000], [6, 2000], [7, 4000], [8, 5000], [50, 5000]]);
  });

  it("clears a success's own pair of failures, not those of other sources", async () => {
    const shared = await newUser('shared');
    const [mine, theirs] = ['127.0.2.1', '127.0.2.2'];
    for (let i = 1; i <= 3; i++) expectWrong(await passwordGrant(theirs, shared.email, `guess-${i}`));
    expectWrong(await passwordGrant(mine, shared.email, 'typo'));
    expect(failuresBySource(shared.email)).toEqual({ [mine]: 1, [theirs]: 3 });

    expect((await passwordGrant(mine, shared.email, shared.password)).status).toBe(200);
    expect(failuresBySource(shared.email)).toEqual({ [theirs]: 3 });
    // The other source's failures still count towards its lock.
    expectWrong(await passwordGrant(theirs, shared.email, 'guess-4'));
    expectLocked(await passwordGrant(theirs, shared.email, 'guess-5'), EMAIL_LOCKED);
    expect((await passwordGrant(mine, shared.email, shared.password)).status).toBe(200);
  });
});

describe('sign-in lockout behind a reverse proxy (serve --trust-proxy)', () => {
  it('counts the client X-Forwarded-For names when the proxy is trusted, and ignores the header from anyone else', async () => {
    const proxied = await startTestHub({ trustProxy: '127.0.0.1' });
    try {
      const user = { email: 'proxied@example.com', password: 'proxied-password-1' };
      await proxied.engine.users.create({ ...user, name: 'Pia Proxied', role: 'user' });
      const { port } = new URL(proxied.url);
      const grant = (from: string, forwardedFor: string, password: string) => {
        const body = new URLSearchParams({ grant_type: 'password', username: user.email, password }).toString();
        return new Promise<number>((resolve, reject) => {
          const request = http.request({ host: '127.0.0.1', port, path: '/oauth2/token', method: 'POST', localAddress: from, agent: false, headers: {
            Authorization: basic(FIRST_PARTY_CLIENT_ID, ''), 'Content-Type': FORM, 'X-Forwarded-For': forwardedFor,
          } }, (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode!));
          });
          request.on('error', reject);
          request.end(body);
        });
      };
      // Through the trusted proxy (127.0.0.1): one client's failures lock that client only.
      for (let i = 0; i < MAX_FAILED_SIGN_INS; i++) expect(await grant('127.0.0.1', '203.0.113.7', 'wrong-password')).toBe(400);
      const sources = proxied.engine.db.prepare('SELECT DISTINCT source FROM sign_in_failures WHERE email = ?').pluck().all(user.email);
      expect(sources).toEqual(['203.0.113.7']);
      expect(await grant('127.0.0.1', '198.51.100.20', user.password)).toBe(200);
      // From an address that is not the proxy the header is only a claim: the connection's address counts.
      expect(await grant('127.0.0.4', '198.51.100.99', 'wrong-password')).toBe(400);
      expect(proxied.engine.db.prepare('SELECT DISTINCT source FROM sign_in_failures WHERE email = ? ORDER BY source').pluck().all(user.email))
        .toEqual(['127.0.0.4', '203.0.113.7']);
    } finally {
      await proxied.close();
    }
  });
});
