// Connecting the desktop app to a hub: OAuth 2.0 for native apps (RFC 8252).
// The app opens the hub's consent page in the system browser (never in its own
// window, so the password is typed where the user can see the real address),
// listens on a loopback port for the redirect, and exchanges the code with its
// PKCE verifier. Pure Node (no 'electron' import), so it is tested under Vitest
// against a real hub; main.ts passes shell.openExternal as `openBrowser`.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FIRST_PARTY_CLIENT_ID, type TokenResponse } from '../../shared/oauth.js';
import { REPLICA_SCOPE } from '../engine/replica/upstream.js';

export interface BrowserSignInOptions {
  hubUrl: string;
  /** Opens a URL in the system browser. */
  openBrowser(url: string): Promise<void>;
  /** How long to wait for the person to finish in the browser. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The page the browser shows after the redirect: the rest happens in the app. */
const DONE_PAGE = '<!doctype html><meta charset="utf-8"><title>Outpost</title><p>You can close this tab and return to Outpost.</p>';

export class HubSignInError extends Error {}

/** Runs the whole flow; resolves with the hub's tokens, rejects when denied, timed out or refused. */
export async function signInThroughBrowser(options: BrowserSignInOptions): Promise<TokenResponse> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(16).toString('base64url');
  const base = options.hubUrl.replace(/\/+$/, '');
  const listener = await listenForRedirect(state, options.timeoutMs ?? 5 * 60_000);
  try {
    const authorize = new URL(`${base}/oauth2/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'code', client_id: FIRST_PARTY_CLIENT_ID, redirect_uri: listener.redirectUri,
      scope: REPLICA_SCOPE, state, code_challenge: challenge, code_challenge_method: 'S256',
    }).toString();
    await options.openBrowser(authorize.toString());
    const code = await listener.code;
    return await tokenRequest(base, options.fetch, {
      grant_type: 'authorization_code', code, redirect_uri: listener.redirectUri, code_verifier: verifier, client_id: FIRST_PARTY_CLIENT_ID, client_secret: '',
    });
  } finally {
    listener.close();
  }
}

export interface PasswordSignInOptions {
  hubUrl: string;
  email: string;
  password: string;
  fetch?: typeof fetch;
}

/**
 * The other way the settings offer: the hub account's email and password,
 * exchanged once for tokens with the password grant (the built-in app is the
 * hub's first-party client, which may use it). The password is not kept.
 */
export async function signInWithPassword(options: PasswordSignInOptions): Promise<TokenResponse> {
  return tokenRequest(options.hubUrl, options.fetch, {
    grant_type: 'password', username: options.email, password: options.password, scope: REPLICA_SCOPE, client_id: FIRST_PARTY_CLIENT_ID, client_secret: '',
  });
}

/** POST /oauth2/token; the hub's error description becomes the message of a HubSignInError. */
async function tokenRequest(hubUrl: string, fetchImpl: typeof fetch | undefined, form: Record<string, string>): Promise<TokenResponse> {
  const response = await (fetchImpl ?? fetch)(`${hubUrl.replace(/\/+$/, '')}/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams(form),
  });
  const body = (await response.json()) as TokenResponse & { error?: string; error_description?: string };
  if (!response.ok) throw new HubSignInError(body.error_description ?? `The hub refused the sign-in (${response.status}).`);
  return body;
}

/** A one-shot HTTP listener on 127.0.0.1 (a free port) for `/oauth/callback`. */
async function listenForRedirect(state: string, timeoutMs: number): Promise<{ redirectUri: string; code: Promise<string>; close(): void }> {
  let settle!: { resolve(code: string): void; reject(err: Error): void };
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/oauth/callback') return void response.writeHead(404).end();
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(DONE_PAGE);
    // Only the answer to our own request counts (RFC 6749 §10.12): anything else is ignored, and the wait goes on.
    if (url.searchParams.get('state') !== state) return;
    const error = url.searchParams.get('error');
    if (error) settle.reject(new HubSignInError(error === 'access_denied' ? 'The sign-in was cancelled in the browser.' : `The hub answered ${error}.`));
    else settle.resolve(url.searchParams.get('code') ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const timer = setTimeout(() => settle.reject(new HubSignInError('The sign-in in the browser was not finished in time.')), timeoutMs);
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}/oauth/callback`,
    code,
    close: () => {
      clearTimeout(timer);
      server.close();
    },
  };
}
