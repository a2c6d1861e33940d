// Connecting the desktop app to a hub: OAuth 2.0 for native apps (RFC 8252).
// The app opens the hub's consent page in the system browser (never in its own
// window, so the password is typed where the user can see the real address),
// gets the redirect back, and exchanges the code with its PKCE verifier. The
// redirect comes back one of two ways: an installed app, which the OS opens
// for `outpost:` links, uses `outpost://oauth/callback` (§7.1) and gets the
// link from the shell through AppRedirects; otherwise (an unpackaged run) it
// listens on a loopback port (§7.3). Pure Node (no 'electron' import), so it is
// tested under Vitest against a real hub; main.ts passes shell.openExternal as
// `openBrowser` and hands over the `outpost://oauth/callback` links it is given.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FIRST_PARTY_APP_REDIRECT_URI, FIRST_PARTY_CLIENT_ID, type TokenResponse } from '../../shared/oauth.js';
import { REPLICA_SCOPE } from '../engine/replica/upstream.js';

export interface BrowserSignInOptions {
  hubUrl: string;
  /** Opens a URL in the system browser. */
  openBrowser(url: string): Promise<void>;
  /**
   * Given when the OS hands `outpost:` links to this app (an installed app):
   * the hub redirects to `outpost://oauth/callback` and the answer arrives
   * here. Without it, a loopback listener takes the redirect.
   */
  appRedirects?: AppRedirects;
  /** How long to wait for the person to finish in the browser. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The page the browser shows after the redirect: the rest happens in the app. */
const DONE_PAGE = '<!doctype html><meta charset="utf-8"><title>Outpost</title><p>You can close this tab and return to Outpost.</p>';

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

export class HubSignInError extends Error {}

/** Runs the whole flow; resolves with the hub's tokens, rejects when denied, timed out or refused. */
export async function signInThroughBrowser(options: BrowserSignInOptions): Promise<TokenResponse> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(16).toString('base64url');
  const base = options.hubUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const redirect = options.appRedirects ? options.appRedirects.expect(state, timeoutMs) : await listenForRedirect(state, timeoutMs);
  try {
    const authorize = new URL(`${base}/oauth2/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'code', client_id: FIRST_PARTY_CLIENT_ID, redirect_uri: redirect.redirectUri,
      scope: REPLICA_SCOPE, state, code_challenge: challenge, code_challenge_method: 'S256',
    }).toString();
    await options.openBrowser(authorize.toString());
    const code = await redirect.code;
    return await tokenRequest(base, options.fetch, {
      grant_type: 'authorization_code', code, redirect_uri: redirect.redirectUri, code_verifier: verifier, client_id: FIRST_PARTY_CLIENT_ID, client_secret: '',
    });
  } finally {
    redirect.close();
  }
}

/** Where the hub sends the browser back, and the code it brings once it does. */
interface RedirectWait {
  redirectUri: string;
  code: Promise<string>;
  close(): void;
}

/**
 * The wait for one sign-in's answer, whichever way it arrives: only a redirect
 * carrying this sign-in's `state` settles it (RFC 6749 §10.12: anything else
 * is ignored and the wait goes on), with its `code` or its `error`; after
 * `timeoutMs` it gives up.
 */
class AnswerWait {
  readonly code: Promise<string>;
  private settle!: { resolve(code: string): void; reject(err: Error): void };
  private readonly timer: NodeJS.Timeout;

  constructor(readonly state: string, timeoutMs: number) {
    this.code = new Promise<string>((resolve, reject) => (this.settle = { resolve, reject }));
    // Nobody may be awaiting `code` yet (the browser is still opening): a rejection must not count as unhandled.
    this.code.catch(() => undefined);
    this.timer = setTimeout(() => this.settle.reject(new HubSignInError('The sign-in in the browser was not finished in time.')), timeoutMs);
  }

  /** A redirect back from the hub: true when it was this sign-in's answer. */
  answer(callback: URL): boolean {
    if (callback.searchParams.get('state') !== this.state) return false;
    const error = callback.searchParams.get('error');
    if (error) this.settle.reject(new HubSignInError(error === 'access_denied' ? 'The sign-in was cancelled in the browser.' : `The hub answered ${error}.`));
    else this.settle.resolve(callback.searchParams.get('code') ?? '');
    return true;
  }

  close(): void {
    clearTimeout(this.timer);
  }
}

/**
 * The sign-ins waiting for the OS to hand the app its `outpost://oauth/callback`
 * link, by `state`. main.ts keeps one and gives it every such link that
 * reaches the app (a second launch's command line, macOS `open-url`).
 */
export class AppRedirects {
  private readonly waiting = new Map<string, AnswerWait>();

  /** Starts waiting for the answer to the sign-in with this `state`. */
  expect(state: string, timeoutMs: number): RedirectWait {
    const wait = new AnswerWait(state, timeoutMs);
    this.waiting.set(state, wait);
    return {
      redirectUri: FIRST_PARTY_APP_REDIRECT_URI,
      code: wait.code,
      close: () => {
        wait.close();
        this.waiting.delete(state);
      },
    };
  }

  /**
   * A callback link the OS handed the app: true when it answered a sign-in in
   * progress. One for no sign-in (an old browser tab, a sign-in that timed
   * out, someone else's link) is ignored.
   */
  deliver(link: string): boolean {
    let callback: URL;
    try {
      callback = new URL(link);
    } catch {
      return false;
    }
    const wait = this.waiting.get(callback.searchParams.get('state') ?? '');
    return wait ? wait.answer(callback) : false;
  }

  /** How many sign-ins are waiting (for tests and diagnostics). */
  get pending(): number {
    return this.waiting.size;
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
async function listenForRedirect(state: string, timeoutMs: number): Promise<RedirectWait> {
  const wait = new AnswerWait(state, timeoutMs);
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/oauth/callback') return void response.writeHead(404).end();
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(DONE_PAGE);
    wait.answer(url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}/oauth/callback`,
    code: wait.code,
    close: () => {
      wait.close();
      server.close();
    },
  };
}
