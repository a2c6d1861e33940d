import { describe, expect, it } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { appMenuTemplate, type MenuOptions } from '../../electron/desktop/appMenu.js';
import type { ShellMessage } from '../../electron/desktop/shellEvents.js';

function build(options: Partial<MenuOptions> = {}) {
  const sent: ShellMessage[] = [];
  const calls: string[] = [];
  const template = appMenuTemplate(
    { platform: 'linux', isPackaged: true, connectedToHub: false, ...options },
    { send: (message) => sent.push(message), importContacts: () => calls.push('import'), showAbout: () => calls.push('about') },
  );
  return { template, sent, calls };
}

const submenu = (template: MenuItemConstructorOptions[], label: string) => template.find((m) => m.label === label || m.role === label)?.submenu as MenuItemConstructorOptions[];
const item = (template: MenuItemConstructorOptions[], menu: string, label: string) => submenu(template, menu).find((i) => i.label === label)!;
const click = (entry: MenuItemConstructorOptions) => (entry.click as () => void)();

/** Every item of the menu, however deep. */
function allItems(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((i) => [i, ...(Array.isArray(i.submenu) ? allItems(i.submenu) : [])]);
}

describe('the application menu', () => {
  it('has the usual menus in order, with the app menu first on macOS', () => {
    expect(build().template.map((m) => m.label ?? m.role)).toEqual(['File', 'editMenu', 'View', 'Go', 'windowMenu', 'help']);
    expect(build({ platform: 'darwin' }).template.map((m) => m.label ?? m.role)).toEqual(['Outpost', 'File', 'editMenu', 'View', 'Go', 'windowMenu', 'help']);
  });

  it('File creates records, imports contacts, and closes', () => {
    const { template, sent, calls } = build();
    expect(submenu(template, 'File').filter((i) => i.type !== 'separator').map((i) => [i.label ?? i.role, i.accelerator])).toEqual([
      ['New Contact', 'CmdOrCtrl+N'],
      ['New Task', 'CmdOrCtrl+T'],
      ['New Note', 'CmdOrCtrl+Shift+N'],
      ['Import Contacts…', 'CmdOrCtrl+O'],
      ['Import Contacts from CSV…', undefined],
      ['Settings', 'CmdOrCtrl+,'],
      ['close', undefined],
      ['quit', undefined],
    ]);
    for (const label of ['New Contact', 'New Task', 'New Note', 'Import Contacts from CSV…', 'Settings']) click(item(template, 'File', label));
    click(item(template, 'File', 'Import Contacts…'));
    expect(sent).toEqual([
      { event: 'command', payload: { name: 'new-contact' } },
      { event: 'command', payload: { name: 'new-task' } },
      { event: 'command', payload: { name: 'new-note' } },
      { event: 'open-path', payload: { path: '/contacts/import' } },
      { event: 'open-path', payload: { path: '/settings' } },
    ]);
    expect(calls).toEqual(['import']);
  });

  it('Go opens the command palette and the main screens', () => {
    const { template, sent } = build();
    expect(submenu(template, 'Go').filter((i) => i.type !== 'separator').map((i) => [i.label, i.accelerator])).toEqual([
      ['Command Palette…', 'CmdOrCtrl+K'],
      ['Contacts', 'CmdOrCtrl+1'],
      ['Leads', 'CmdOrCtrl+2'],
      ['Deals', 'CmdOrCtrl+3'],
      ['Tasks', 'CmdOrCtrl+4'],
    ]);
    for (const entry of submenu(template, 'Go')) if (entry.click) click(entry);
    expect(sent).toEqual([
      { event: 'command', payload: { name: 'command-palette' } },
      ...['/contacts', '/leads', '/deals', '/tasks'].map((path) => ({ event: 'open-path', payload: { path } })),
    ]);
  });

  it('offers Sync Now only when connected to a hub, and developer tools only unpackaged', () => {
    const connected = build({ connectedToHub: true });
    click(item(connected.template, 'File', 'Sync Now'));
    expect(connected.sent).toEqual([{ event: 'command', payload: { name: 'sync-now' } }]);
    expect(item(build().template, 'File', 'Sync Now')).toBeUndefined();
    const roles = (options: Partial<MenuOptions>) => submenu(build(options).template, 'View').map((i) => i.role);
    expect(roles({ isPackaged: true })).not.toContain('toggleDevTools');
    expect(roles({ isPackaged: false })).toContain('toggleDevTools');
  });

  it('puts About and Settings where each OS expects them', () => {
    const mac = build({ platform: 'darwin' });
    click(item(mac.template, 'Outpost', 'About Outpost'));
    expect(mac.calls).toEqual(['about']);
    expect(item(mac.template, 'Outpost', 'Settings…').accelerator).toBe('CmdOrCtrl+,');
    expect(item(mac.template, 'File', 'Settings')).toBeUndefined();
    expect(submenu(mac.template, 'File').map((i) => i.role)).not.toContain('quit'); // Quit is in the app menu
    const linux = build();
    click(item(linux.template, 'help', 'About Outpost'));
    expect(linux.calls).toEqual(['about']);
  });

  it('gives no two items the same shortcut, on any OS', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const accelerators = allItems(build({ platform, connectedToHub: true }).template).map((i) => i.accelerator).filter(Boolean);
      // Help → Keyboard Shortcuts shows the palette too, under its own key.
      expect(new Set(accelerators).size).toBe(accelerators.length);
      for (const accelerator of accelerators) expect(accelerator).toMatch(/^(CmdOrCtrl\+)(Shift\+)?([A-Z0-9]|,|\/)$/);
    }
  });
});
