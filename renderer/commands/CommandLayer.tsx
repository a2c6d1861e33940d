import { useEffect } from 'react';
import { COMMANDS, PALETTE_SHORTCUT, isMac, matchesShortcut, runDesktopCommand, shortcutLabel } from './commands.js';
import { useCommands } from './commandStore.js';
import { CommandPalette } from './CommandPalette.js';
import { QuickCreateDialog } from './QuickCreateDialog.js';
import './commands.css';

const NOTICE_MS = 4000;

/** Typing in a field: a shortcut's letters belong to the text there. */
function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/** Another modal dialog is up (a confirmation, a conversion): shortcuts wait until it is done. */
const otherDialogOpen = () => document.querySelector('dialog[open]:not(.command-palette)') !== null;

/**
 * The keyboard shortcuts and the desktop menu's commands (bridge 'command'
 * events), and the palette and quick-create dialogs they open. Mounted
 * once, in the signed-in shell.
 */
export function CommandLayer() {
  const { paletteOpen, quickCreate, notice, clearNotice } = useCommands();

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.repeat || otherDialogOpen()) return;
      // Ctrl/⌘+K works from fields too, as in other apps; it only ever opens (see commandStore).
      if (matchesShortcut(event, PALETTE_SHORTCUT)) {
        event.preventDefault();
        useCommands.getState().openPalette();
        return;
      }
      if (isTyping(event.target)) return;
      const command = COMMANDS.find((c) => c.shortcut && matchesShortcut(event, c.shortcut) && c.available());
      if (command) {
        event.preventDefault();
        command.run();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    // The desktop menu's commands (deep links are followed from the app's start: bridgeEvents.ts).
    const stopCommands = window.outpost?.on('command', (payload) => runDesktopCommand((payload as { name?: string } | null)?.name ?? ''));
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      stopCommands?.();
    };
  }, []);

  useEffect(() => {
    if (notice === null) return;
    const timer = setTimeout(clearNotice, NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice, clearNotice]);

  return (
    <>
      {paletteOpen && <CommandPalette />}
      {quickCreate && <QuickCreateDialog key={quickCreate} kind={quickCreate} />}
      {/* Always on the page (empty when quiet), so screen readers announce what appears in it. */}
      <p role="status" className="command-notice">{notice}</p>
    </>
  );
}

/** The sidebar's way into the palette, for the mouse, with its shortcut. */
export function PaletteButton() {
  const openPalette = useCommands((s) => s.openPalette);
  return (
    // aria-keyshortcuts takes key names, not the symbols shown.
    <button type="button" className="palette-button" onClick={openPalette} aria-keyshortcuts={isMac ? 'Meta+K' : 'Control+K'}>
      Search… <kbd>{shortcutLabel(PALETTE_SHORTCUT)}</kbd>
    </button>
  );
}

