import { useEffect, useEffectEvent, useState } from 'react';
import { usePhone } from './usePhone.js';

const MENU_BUTTON_ID = 'menu-button';

export interface NavDrawer {
  open: boolean;
  toggle(): void;
  /** Closes and gives the keyboard back to the menu button (Escape, a tap beside the drawer). */
  close(): void;
}

/**
 * On a phone the main navigation is a drawer: the top bar's menu button
 * opens it over the screen, and it closes on a choice (the path changes),
 * on Escape, or on a tap beside it. On wider
 * windows it is the sidebar, always there, and none of this applies.
 */
export function useNavDrawer(path: string): NavDrawer {
  const [openOn, setOpenOn] = useState<string | null>(null);
  // Another path, the drawer's job is done: forgotten at once, so coming back to that path later finds it shut.
  if (openOn !== null && openOn !== path) setOpenOn(null);
  const phone = usePhone();
  const open = phone && openOn === path;
  const close = () => {
    setOpenOn(null);
    document.getElementById(MENU_BUTTON_ID)?.focus();
  };
  const onKeyDown = useEffectEvent((event: KeyboardEvent) => {
    if (event.key === 'Escape') close();
  });

  useEffect(() => {
    if (!open) return;
    const listener = (event: KeyboardEvent) => onKeyDown(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [open]);

  return { open, toggle: () => setOpenOn(open ? null : path), close };
}

/** The top bar's menu button (phones only); a replica's sync state shows beside it (sync/SyncIndicator.tsx, HeaderSyncState). */
export function MenuButton({ drawer }: { drawer: NavDrawer }) {
  return (
    <button id={MENU_BUTTON_ID} type="button" className="menu-button" aria-controls="main-nav" aria-expanded={drawer.open} onClick={drawer.toggle} title="Menu">
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <path fill="currentColor" d="M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z" />
      </svg>
      <span className="visually-hidden">Menu</span>
    </button>
  );
}

/** The shade behind the open drawer: a tap on it closes the drawer. */
export function DrawerScrim({ drawer }: { drawer: NavDrawer }) {
  return drawer.open ? <div className="drawer-scrim" aria-hidden="true" onClick={drawer.close} /> : null;
}
