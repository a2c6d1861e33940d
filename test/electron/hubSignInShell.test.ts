// The hub sign-in of an installed app, through the bundled main process run
// under Node with the stand-in for Electron (support/fakeElectron.ts) and a
// real hub: packaged, the app claims outpost://, so Settings → Team hub sends
// the browser to the hub with the redirect outpost://oauth/callback, and the
// OS's hand-over of that link (a second launch's command line, macOS
// `open-url`) answers the sign-in in the main process without the window
// ever seeing it. desktopShell.test.ts covers the unpackaged run (loopback).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { IPC_CHANNELS } from '../../shared/bridge.js';
import { FIRST_PARTY_APP_REDIRECT_URI } from '../../shared/oauth.js';
import { ADMIN, startTestHub, type TestHub } from '../support/testHub.js';
import { decide, openConsent } from '../support/consentForm.js';
import { fakeElectron, ROOT, runMainBundle, waitFor } from './support/fakeElectron.js';

describe('the hub sign-in of a packaged app (with a stand-in for Electron)', () => {
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, '.cache/test-signin-'));
  const fake = fakeElectron();
  const { recorded, app } = fake;
  let relaunches = 0;
  Object.assign(app, { isPackaged: true, relaunch: () => relaunches++ });
  let hub: TestHub;
  let restore: (() => void) | undefined;

  beforeAll(async () => {
    hub = await startTestHub();
    restore = await runMainBundle(fake, join(dir, 'bundle'), join(dir, 'user-data'));
  });

  afterAll(async () => {
    app.emit('will-quit');
    restore?.();
    await hub.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const window = () => recorded.windows[0];
  const trustedEvent = () => ({ sender: { id: window().webContents.id }, senderFrame: { url: 'app://outpost/settings', parent: null } });
  const invoke = (request: unknown) => recorded.ipcHandlers.get(IPC_CHANNELS.request)!(trustedEvent(), request) as Promise<any>;
  const shellMessages = () => window().webContents.sent.filter((s) => s.channel === IPC_CHANNELS.event && s.message.event !== 'sync-status');

  /** Settings → Team hub → Connect; then the person in the browser, and where the hub sends the browser back. */
  async function connect(decision: 'approve' | 'deny') {
    const opened = recorded.opened.length;
    const answer = invoke({ method: 'POST', path: '/v2/desktop/hub', body: { data: { hub_url: hub.url } } });
    await waitFor(() => recorded.opened.length > opened, 'the browser to open');
    const authorize = new URL(recorded.opened.at(-1)!);
    const page = await openConsent(hub.url, Object.fromEntries(authorize.searchParams));
    const back = await decide(hub.url, page, decision, ADMIN);
    return { authorize, location: back.location!, answer };
  }

  it('claims outpost:// and sends the browser to the hub with the outpost://oauth/callback redirect', async () => {
    expect(recorded.protocolClients).toEqual(['outpost']);
    // The page must be past the session check for shell events to be sent at all (shellEvents.ts).
    await invoke({ method: 'GET', path: '/v2/contacts' });
    const { authorize, location, answer } = await connect('approve');
    expect(authorize.searchParams.get('redirect_uri')).toBe(FIRST_PARTY_APP_REDIRECT_URI);
    expect(location.startsWith(`${FIRST_PARTY_APP_REDIRECT_URI}?code=`)).toBe(true);

    // Windows and Linux: the OS starts Outpost with the link, and that second launch hands its command line over.
    const focused = window().focused;
    app.emit('second-instance', {}, ['/opt/Outpost/outpost', '--some-switch', location], dir);
    const connected = await answer;
    expect([connected.status, connected.body.data]).toEqual([200, { hub_url: hub.url, connected: true, remembered: false }]);
    expect(window().focused).toBeGreaterThan(focused);
    // The code went to the sign-in, not to the window's router.
    expect(shellMessages()).toEqual([]);
    await waitFor(() => relaunches === 1, 'the restart as a replica');
  });

  it('takes the answer from macOS open-url too: a denial is reported to the settings', async () => {
    const { location, answer } = await connect('deny');
    let prevented = 0;
    app.emit('open-url', { preventDefault: () => prevented++ }, location);
    const denied = await answer;
    expect([denied.status, denied.body.errors[0].error.message]).toEqual([422, 'The sign-in was cancelled in the browser.']);
    expect(prevented).toBe(1);
    expect(shellMessages()).toEqual([]);
  });

  it('ignores a callback link no sign-in is waiting for', () => {
    app.emit('second-instance', {}, ['/opt/Outpost/outpost', `${FIRST_PARTY_APP_REDIRECT_URI}?code=${'0'.repeat(64)}&state=stale`], dir);
    app.emit('open-url', { preventDefault: () => undefined }, `${FIRST_PARTY_APP_REDIRECT_URI}?code=1&state=stale`);
    expect(shellMessages()).toEqual([]);
  });
});
