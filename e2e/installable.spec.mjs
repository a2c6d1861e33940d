// The hub's page is an installable web app on phones and desktops: a manifest
// the browser reads without errors (standalone display, icons of the sizes
// stores ask for, one of them maskable), allowed by the page's security
// policy, and nothing Chromium names as a reason not to offer "Install".
import { chromium } from '@playwright/test';
import { expect, test } from './fixtures.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { screenshot } from './browser.mjs';

const PHONE = { width: 390, height: 844 };

test('the sign-in page offers an installable app: manifest, icons, no installability errors', async ({ seededHub }, testInfo) => {
  // A profile on disk: Chromium never offers to install from an incognito-like context, which Playwright's usual ones are.
  const profile = mkdtempSync(join(tmpdir(), 'outpost-install-'));
  const context = await chromium.launchPersistentContext(profile, { ...testInfo.project.use.launchOptions, viewport: PHONE });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const refused = [];
    page.on('console', (message) => {
      if (/Content Security Policy|manifest/i.test(message.text())) refused.push(message.text());
    });
    await page.goto(`${seededHub.url}/login`);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();

    const cdp = await context.newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.errors).toEqual([]);
    expect(manifest.url).toBe(`${seededHub.url}/manifest.webmanifest`);
    const app = JSON.parse(manifest.data);
    expect([app.display, app.start_url, app.short_name]).toEqual(['standalone', '/', 'Outpost']);
    expect(app.icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of [...app.icons, { src: '/icons/apple-touch-icon.png' }]) {
      const answer = await page.request.get(`${seededHub.url}${icon.src}`);
      expect([icon.src, answer.status(), answer.headers()['content-type']]).toEqual([icon.src, 200, 'image/png']);
    }
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    expect(refused).toEqual([]);
    await screenshot(page, '60-sign-in-installable-phone');
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
