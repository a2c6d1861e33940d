import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deepLinkPath, isDeepLinkRoute, isOAuthCallback, launchTargetOf, readVcardFile } from '../../electron/desktop/deepLinks.js';

describe('outpost:// deep links', () => {
  it('turns links to the screens of the app into app paths, in every spelling the OSes hand over', () => {
    expect(deepLinkPath('outpost://contacts/12')).toBe('/contacts/12');
    expect(deepLinkPath('outpost://leads/3')).toBe('/leads/3');
    expect(deepLinkPath('outpost://deals/7')).toBe('/deals/7');
    expect(deepLinkPath('outpost://tasks')).toBe('/tasks');
    expect(deepLinkPath('outpost://contacts/12/')).toBe('/contacts/12'); // Windows adds a trailing slash
    expect(deepLinkPath('outpost:///deals/7')).toBe('/deals/7');
    expect(deepLinkPath('outpost:deals/7')).toBe('/deals/7');
    expect(deepLinkPath('outpost://contacts/new')).toBe('/contacts/new');
    expect(deepLinkPath('outpost://objects/car')).toBe('/objects/car');
    expect(deepLinkPath('outpost://deals/7?tab=notes#top')).toBe('/deals/7'); // no screen takes parameters from a link
  });

  it('ignores everything else', () => {
    for (const link of [
      'https://example.com/contacts/1',
      'outpost://contacts/12/edit', // never half-way into a change
      'outpost://contacts/-5', // a replica's temporary id is nobody else's
      'outpost://contacts/0',
      'outpost://contacts/abc',
      'outpost://contacts/%31%32',
      'outpost://contacts/../settings/custom-objects',
      'outpost://settings/custom-objects',
      'outpost://Contacts/12',
      'outpost://user:pw@contacts/1',
      'outpost://contacts:80/1',
      'outpost://login',
      'outpost://',
      `outpost://contacts/${'1'.repeat(3000)}`,
      'not a link',
    ]) {
      expect([link, deepLinkPath(link)]).toEqual([link, null]);
    }
  });

  it('tells the hub sign-in’s redirect back apart: it is never a screen', () => {
    const callback = 'outpost://oauth/callback?code=ab12&state=xyz';
    expect(isOAuthCallback(callback)).toBe(true);
    expect(isOAuthCallback('outpost://oauth/callback/?error=access_denied&state=xyz')).toBe(true); // Windows adds a trailing slash
    expect(isOAuthCallback('outpost:///oauth/callback?state=xyz')).toBe(true);
    for (const link of ['outpost://oauth/callback/x', 'outpost://oauth', 'outpost://contacts/12', 'outpost://user@oauth/callback', 'https://hub.example/oauth/callback', `outpost://oauth/callback?state=${'x'.repeat(3000)}`]) {
      expect([link, isOAuthCallback(link)]).toEqual([link, false]);
    }
    expect(deepLinkPath(callback)).toBeNull();
  });

  it('checks paths against the routes, parameter by parameter', () => {
    expect(isDeepLinkRoute('/sequences/4')).toBe(true);
    expect(isDeepLinkRoute('/objects/Car')).toBe(false);
    expect(isDeepLinkRoute('/enrollments/1/2')).toBe(false);
    expect(isDeepLinkRoute('/products/1')).toBe(false);
  });
});

describe('the command line of a launch', () => {
  it('finds the link or the .vcf, skipping the executable, switches and the main script', () => {
    expect(launchTargetOf(['/opt/Outpost/outpost', 'outpost://leads/3'])).toEqual({ kind: 'link', path: '/leads/3' });
    expect(launchTargetOf(['electron', '--no-sandbox', 'dist/electron/main.cjs', '--original-process-start-time=1', 'OUTPOST://deals/7'])).toEqual({ kind: 'link', path: '/deals/7' });
    expect(launchTargetOf(['C:\\Outpost\\Outpost.exe', 'ann.VCF'], '/home/ann/Downloads')).toEqual({ kind: 'file', file: '/home/ann/Downloads/ann.VCF' });
    expect(launchTargetOf(['outpost', '/tmp/cards.vcard'])).toEqual({ kind: 'file', file: '/tmp/cards.vcard' });
    expect(launchTargetOf(['outpost'])).toBeNull();
    expect(launchTargetOf(['outpost', 'notes.txt'])).toBeNull();
    expect(launchTargetOf(['outpost', 'outpost://nowhere/1', 'ann.vcf'])).toBeNull(); // a bad link is ignored, not second-guessed
  });

  it('hands over the hub sign-in’s redirect back as it came, for the sign-in waiting for it', () => {
    const link = 'outpost://oauth/callback?code=ab12&state=xyz';
    expect(launchTargetOf(['C:\\Outpost\\Outpost.exe', '--allow-file-access-from-files', link])).toEqual({ kind: 'oauth-callback', link });
  });
});

describe('a .vcf opened with the app', () => {
  const dir = mkdtempSync(join(tmpdir(), 'outpost-vcf-'));
  const file = (name: string, content: string | Buffer) => {
    writeFileSync(join(dir, name), content);
    return join(dir, name);
  };

  it('is read as UTF-8 text (without a byte order mark) for the import preview', async () => {
    const text = 'BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Zoë Ångström\r\nEND:VCARD\r\n';
    expect(await readVcardFile(file('zoe.vcf', `\uFEFF${text}`))).toEqual({ ok: true, event: { kind: 'vcard', name: 'zoe.vcf', text } });
  });

  it('is refused, with a reason to show, when too large, not UTF-8, not a vCard, or missing', async () => {
    const card = 'BEGIN:VCARD\r\nFN:A\r\nEND:VCARD\r\n';
    expect(await readVcardFile(file('big.vcf', card.repeat(10)), card.length * 5)).toEqual({ ok: false, message: expect.stringContaining('big.vcf is larger than') });
    expect(await readVcardFile(file('latin1.vcf', Buffer.from('BEGIN:VCARD\r\nFN:J\xf6rg\r\nEND:VCARD\r\n', 'latin1')))).toEqual({ ok: false, message: expect.stringContaining('not UTF-8') });
    expect(await readVcardFile(file('notes.vcf', 'just some notes'))).toEqual({ ok: false, message: expect.stringContaining('holds no vCard') });
    expect(await readVcardFile(file('card.txt', card))).toEqual({ ok: false, message: expect.stringContaining('not a vCard file') });
    expect(await readVcardFile(join(dir, 'gone.vcf'))).toEqual({ ok: false, message: 'gone.vcf could not be read (ENOENT).' });
    rmSync(dir, { recursive: true, force: true });
  });
});
