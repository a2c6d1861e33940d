// The native menu: the usual File / Edit / View / Go / Window / Help with
// shortcuts, built as a plain template so it is tested under Vitest (only
// Electron's types are imported). Items that act on the UI send the window a
// bridge event ('command' or 'open-path'); the renderer does the rest, the
// same way as its own keyboard shortcuts in a browser.
import type { MenuItemConstructorOptions } from 'electron';
import { command, openPath, type ShellMessage } from './shellEvents.js';
import { menuAccelerator } from '../../shared/bridge.js';

export interface MenuActions {
  /** Sends the window a bridge event. */
  send(message: ShellMessage): void;
  /** Asks for a .vcf file and opens it in the vCard import preview. */
  importContacts(): void;
  showAbout(): void;
}

export interface MenuOptions {
  platform: NodeJS.Platform;
  /** Developer tools only in an unpackaged build. */
  isPackaged: boolean;
  /** "Sync Now" only when the app is a replica of a hub. */
  connectedToHub: boolean;
}

/** The Go menu's screens, with their shortcuts (also the order of the sidebar). */
export const GO_TO: readonly { label: string; path: string; accelerator: string }[] = [
  { label: 'Contacts', path: '/contacts', accelerator: 'CmdOrCtrl+1' },
  { label: 'Leads', path: '/leads', accelerator: 'CmdOrCtrl+2' },
  { label: 'Deals', path: '/deals', accelerator: 'CmdOrCtrl+3' },
  { label: 'Tasks', path: '/tasks', accelerator: 'CmdOrCtrl+4' },
];

export function appMenuTemplate(options: MenuOptions, actions: MenuActions): MenuItemConstructorOptions[] {
  const isMac = options.platform === 'darwin';
  const send = (message: ShellMessage) => () => actions.send(message);
  const settings: MenuItemConstructorOptions = { label: isMac ? 'Settings…' : 'Settings', accelerator: 'CmdOrCtrl+,', click: send(openPath('/settings')) };

  const appMenu: MenuItemConstructorOptions = {
    label: 'Outpost',
    submenu: [
      { label: 'About Outpost', click: () => actions.showAbout() },
      { type: 'separator' },
      settings,
      { type: 'separator' },
      { role: 'services' },
      { type: 'separator' },
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      { type: 'separator' },
      { role: 'quit' },
    ],
  };
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'New Contact', accelerator: menuAccelerator('new-contact'), click: send(command('new-contact')) },
      { label: 'New Task', accelerator: menuAccelerator('new-task'), click: send(command('new-task')) },
      { label: 'New Note', accelerator: menuAccelerator('new-note'), click: send(command('new-note')) },
      { type: 'separator' },
      { label: 'Import Contacts…', accelerator: 'CmdOrCtrl+O', click: () => actions.importContacts() },
      // CSV files go through the column-mapping screen (renderer/importExport/importRoutes.tsx).
      { label: 'Import Contacts from CSV…', click: send(openPath('/contacts/import')) },
      ...(options.connectedToHub ? [{ type: 'separator' as const }, { label: 'Sync Now', accelerator: menuAccelerator('sync-now'), click: send(command('sync-now')) }] : []),
      { type: 'separator' },
      ...(isMac ? [] : [settings, { type: 'separator' as const }]),
      { role: 'close' },
      ...(isMac ? [] : [{ role: 'quit' as const }]),
    ],
  };
  const edit: MenuItemConstructorOptions = { role: 'editMenu' };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { role: 'reload' },
      ...(options.isPackaged ? [] : [{ role: 'toggleDevTools' as const }]),
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const go: MenuItemConstructorOptions = {
    label: 'Go',
    submenu: [
      { label: 'Command Palette…', accelerator: menuAccelerator('command-palette'), click: send(command('command-palette')) },
      { type: 'separator' },
      ...GO_TO.map(({ label, path, accelerator }) => ({ label, accelerator, click: send(openPath(path)) })),
    ],
  };
  const window: MenuItemConstructorOptions = { role: 'windowMenu' };
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [
      // The palette lists every command with its shortcut.
      { label: 'Keyboard Shortcuts', accelerator: 'CmdOrCtrl+/', click: send(command('command-palette')) },
      ...(isMac ? [] : [{ type: 'separator' as const }, { label: 'About Outpost', click: () => actions.showAbout() }]),
    ],
  };
  return [...(isMac ? [appMenu] : []), file, edit, view, go, window, help];
}
