import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, call, startTestHub, type TestHub } from '../support/testHub.js';
import { AppRedirects, HubSignInError, signInThroughBrowser, signInWithPassword } from '../../electron/desktop/hubSignIn.js';
import { launchTargetOf } from '../../electron/desktop/deepLinks.js';
import { decide, openConsent } from '../support/consentForm.js';
import { FIRST_PARTY_APP_REDIRECT_URI } from '../../shared/oauth.js';
import { CredentialStore, type Cipher } from '../../electron/desktop/credentialStore.js';
import { hubRoutes } from '../../electron/desktop/hubRoutes.js';
import { openEngine } from '../../electron/engine/engine.js';
import { createHttpApp } from '../../electron/engine/http/app.js';

let hub: TestHub;
const dirs: string[] = [];
beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(async () => {
  await hub.close();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

/** Where the browser goes after the consent page: the hub's redirect Location. */
type Follow = (location: string) => void;

/** Like a browser, follow the redirect to the app's loopback address. */
const toLoopback: Follow = (location) => void fetch(location).then((r) => r.text());

/**
 * The system browser, scripted with fetch (no browser window here): it loads
 * the hub's consent page, submits its form as a person would (hidden fields,
 * CSRF cookie), and goes where the hub redirects it (`follow`).
 */
function scriptedBrowser(decision: 'approve' | 'deny', follow: Follow = toLoopback, who = ADMIN) {
  return async (url: string) => {
    const page = await openConsent(hub.url, Object.fromEntries(new URL(url).searchParams));
    const answer = await decide(hub.url, page, decision, who);
    follow(answer.location!);
  };
}

/**
 * The OS, for an installed app: the browser hands it the `outpost:` link, it
 * starts the app with the link as its argument (a second launch hands its
 * command line to the running app), and main.ts gives the sign-in's answer to
 * the waiting sign-in.
 */
function toApp(redirects: AppRedirects, delivered: boolean[] = []): Follow {
  return (location) => {
    const target = launchTargetOf(['/opt/Outpost/outpost', location]);
    expect(target).toEqual({ kind: 'oauth-callback', link: location });
    delivered.push(redirects.deliver(location));
  };
}

// Electron's safeStorage (the OS keychain) cannot run here: an AES-256-GCM cipher with a random key stands in for it.
const key = randomBytes(32);
const standIn = (available = true): Cipher => ({
  isAvailable: () => available,
  encrypt: (text) => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  },
  decrypt: (data) => {
    const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
    decipher.setAuthTag(data.subarray(12, 28));
    return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
  },
});

describe('connecting the desktop app to a hub', () => {
  it('signs in through the system browser with PKCE and a loopback redirect, and gets tokens that work', async () => {
    let opened = '';
    const tokens = await signInThroughBrowser({ hubUrl: hub.url, openBrowser: async (url) => {
      opened = url;
      await scriptedBrowser('approve')(url);
    } });
    const asked = new URL(opened);
    expect(asked.searchParams.get('client_id')).toBe('outpost-app');
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
    expect(asked.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback$/);
    expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'read write profile sync' });
    expect(tokens.refresh_token).toMatch(/^[0-9a-f]{64}$/);
    expect((await call(hub, 'GET', '/v2/users/self', { token: tokens.access_token })).body.data.email).toBe(ADMIN.email);
  });

  it('reports a denial in the browser, and gives up when the person never finishes', async () => {
    await expect(signInThroughBrowser({ hubUrl: hub.url, openBrowser: scriptedBrowser('deny') })).rejects.toThrow(/cancelled/);
    const forgotten = signInThroughBrowser({ hubUrl: hub.url, openBrowser: async () => undefined, timeoutMs: 200 });
    await expect(forgotten).rejects.toBeInstanceOf(HubSignInError);
  });
});

describe('connecting an installed app: the redirect comes back as an outpost: link (RFC 8252 §7.1)', () => {
  it('signs in with PKCE and outpost://oauth/callback, the OS handing the link back, and gets tokens that work', async () => {
    const redirects = new AppRedirects();
    const delivered: boolean[] = [];
    let opened = '';
    const tokens = await signInThroughBrowser({ hubUrl: hub.url, appRedirects: redirects, openBrowser: async (url) => {
      opened = url;
      expect(redirects.pending).toBe(1);
      await scriptedBrowser('approve', toApp(redirects, delivered))(url);
    } });
    const asked = new URL(opened);
    expect(asked.searchParams.get('redirect_uri')).toBe(FIRST_PARTY_APP_REDIRECT_URI);
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
    expect(delivered).toEqual([true]);
    expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'read write profile sync' });
    expect((await call(hub, 'GET', '/v2/users/self', { token: tokens.access_token })).body.data.email).toBe(ADMIN.email);
    expect(redirects.pending).toBe(0);
  });

  it('takes only the answer with its own state: other links are ignored and the wait goes on', async () => {
    const redirects = new AppRedirects();
    const delivered: boolean[] = [];
    let state = '';
    const tokens = await signInThroughBrowser({ hubUrl: hub.url, appRedirects: redirects, openBrowser: async (url) => {
      state = new URL(url).searchParams.get('state')!;
      // An old browser tab's answer, and a forged one, arrive first.
      delivered.push(redirects.deliver(`${FIRST_PARTY_APP_REDIRECT_URI}?code=${'0'.repeat(64)}&state=an-old-sign-in`));
      delivered.push(redirects.deliver(`${FIRST_PARTY_APP_REDIRECT_URI}?error=access_denied`));
      await scriptedBrowser('approve', toApp(redirects, delivered))(url);
    } });
    expect(delivered).toEqual([false, false, true]);
    expect(tokens.access_token).toMatch(/^[0-9a-f]{64}$/);
    // A link that comes once the sign-in is over answers nothing.
    expect(redirects.deliver(`${FIRST_PARTY_APP_REDIRECT_URI}?code=x&state=${state}`)).toBe(false);
  });

  it('reports a denial and a hub error like the loopback way, and gives up after the same timeout', async () => {
    const redirects = new AppRedirects();
    await expect(signInThroughBrowser({ hubUrl: hub.url, appRedirects: redirects, openBrowser: scriptedBrowser('deny', toApp(redirects)) })).rejects.toThrow('The sign-in was cancelled in the browser.');
    const refused = signInThroughBrowser({ hubUrl: hub.url, appRedirects: redirects, openBrowser: async (url) => {
      redirects.deliver(`${FIRST_PARTY_APP_REDIRECT_URI}?error=server_error&state=${new URL(url).searchParams.get('state')}`);
    } });
    await expect(refused).rejects.toThrow('The hub answered server_error.');
    const forgotten = signInThroughBrowser({ hubUrl: hub.url, appRedirects: redirects, openBrowser: async () => undefined, timeoutMs: 200 });
    await expect(forgotten).rejects.toThrow('The sign-in in the browser was not finished in time.');
    expect(redirects.pending).toBe(0);
  });
});

describe('connecting with the hub account’s password', () => {
  it('gets the replica’s tokens for the right password and the hub’s reason for a wrong one', async () => {
    const tokens = await signInWithPassword({ hubUrl: hub.url, email: ADMIN.email, password: ADMIN.password });
    expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'read write profile sync' });
    expect((await call(hub, 'GET', '/v2/users/self', { token: tokens.access_token })).body.data.email).toBe(ADMIN.email);
    await expect(signInWithPassword({ hubUrl: hub.url, email: ADMIN.email, password: 'not-the-password' })).rejects.toThrow(HubSignInError);
  });
});

describe('keeping the hub credentials', () => {
  const credentials = { hubUrl: 'https://crm.example.com', access_token: 'a'.repeat(64), refresh_token: 'b'.repeat(64) };

  it('writes them only encrypted, reads them back, and forgets them on disconnect', () => {
    const dir = mkdtempSync(join(tmpdir(), 'outpost-creds-'));
    dirs.push(dir);
    const file = join(dir, 'hub-credentials.bin');
    const store = new CredentialStore(file, standIn());
    expect(store.save(credentials)).toBe(true);
    expect(readFileSync(file).toString('latin1')).not.toContain('aaaa');
    expect(store.load()).toEqual(credentials);
    store.clear();
    expect(store.load()).toBeNull();
  });

  it('keeps them in memory only where the OS offers no encryption, and ignores a damaged file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'outpost-creds-'));
    dirs.push(dir);
    const file = join(dir, 'hub-credentials.bin');
    expect(new CredentialStore(file, standIn(false)).save(credentials)).toBe(false);
    expect(existsSync(file)).toBe(false);
    const store = new CredentialStore(file, standIn());
    store.save(credentials);
    const other = new CredentialStore(file, { ...standIn(), decrypt: () => { throw new Error('not ours'); } });
    expect(other.load()).toBeNull();
  });
});

describe('the desktop app’s hub settings', () => {
  it('connects through the browser from the settings, keeps the credentials encrypted, restarts as a replica, and disconnects', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outpost-desktop-'));
    dirs.push(dir);
    const engine = openEngine({ dataDir: dir });
    const me = await engine.users.create({ email: 'me@outpost.local', name: 'Me', role: 'admin', password: 'local-only-pass' });
    const token = engine.tokens.createPersonal(me, ['read', 'write', 'profile']);
    const credentials = new CredentialStore(join(dir, 'hub-credentials.bin'), standIn());
    // Electron's app.relaunch() cannot run here: the restart is counted instead.
    let restarts = 0;
    const app = await createHttpApp(engine, { rateLimitPerHour: 0, shellRoutes: (api) => hubRoutes(api, { openBrowser: scriptedBrowser('approve'), credentials, restart: () => restarts++ }) });
    const ask = (method: string, data?: unknown) => app.inject({ method: method as 'GET', url: '/v2/desktop/hub', headers: { authorization: `Bearer ${token}` }, payload: data === undefined ? undefined : { data } });

    expect(JSON.parse((await ask('GET')).body).data).toEqual({ hub_url: null, connected: false });
    const bad = await ask('POST', { hub_url: 'ftp://nope' });
    expect([bad.statusCode, JSON.parse(bad.body).errors[0].error.field]).toEqual([422, '/hub_url']);
    const connected = await ask('POST', { hub_url: `${hub.url}/` });
    expect(connected.statusCode).toBe(200);
    expect(JSON.parse(connected.body).data).toEqual({ hub_url: hub.url, connected: true, remembered: true });
    // The renderer never sees a token; the main process has them, encrypted on disk.
    expect(connected.body).not.toMatch(/[0-9a-f]{64}/);
    const saved = credentials.load()!;
    expect(saved.user).toMatchObject({ email: ADMIN.email });
    expect((await call(hub, 'GET', '/v2/users/self', { token: saved.access_token })).status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));
    expect(restarts).toBe(1);
    expect((await ask('DELETE')).statusCode).toBe(204);
    expect(credentials.load()).toBeNull();

    // The other way: the hub account's email and password, checked by the hub; a wrong one leaves nothing saved.
    const missing = await ask('POST', { hub_url: hub.url, email: ADMIN.email });
    expect([missing.statusCode, JSON.parse(missing.body).errors[0].error.field]).toEqual([422, '/password']);
    const wrong = await ask('POST', { hub_url: hub.url, email: ADMIN.email, password: 'wrong-password-1' });
    expect(wrong.statusCode).toBe(422);
    expect(credentials.load()).toBeNull();
    const byPassword = await ask('POST', { hub_url: hub.url, email: ADMIN.email, password: ADMIN.password });
    expect(JSON.parse(byPassword.body).data).toEqual({ hub_url: hub.url, connected: true, remembered: true });
    expect(byPassword.body).not.toContain(ADMIN.password);
    expect(credentials.load()!.user).toMatchObject({ email: ADMIN.email });
    expect(JSON.stringify(credentials.load())).not.toContain(ADMIN.password);
    await new Promise((resolve) => setImmediate(resolve));
    expect(restarts).toBe(3);
    expect((await app.inject({ method: 'GET', url: '/v2/desktop/hub' })).statusCode).toBe(401);
    await app.close();
    engine.close();
  });
});

