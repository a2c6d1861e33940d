import { useEffect, useEffectEvent, useState } from 'react';
import { useReplica } from '../sync/replicaStore.js';
import { usePhone } from './usePhone.js';
import { attentionText } from '../sync/SyncIndicator.js';

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

/**
 * The top bar's menu button (phones only); a dot on it tells a replica's
 * offline or waiting changes while the drawer is shut, and a red one
 * conflicts or sync issues to settle (the drawer links to them).
 */
export function MenuButton({ drawer }: { drawer: NavDrawer }) {
  const { kind, status, syncing } = useReplica();
  const replica = kind === 'replica' && status ? status : null;
  const attention = replica ? attentionText(replica) : '';
  const state = replica ? (attention ? 'attention' : syncing ? 'syncing' : replica.state) : null;
  const title = [replica ? (syncing ? 'syncing' : replica.state).replace(/_/g, ' ') : '', attention].filter(Boolean).join(' · ');
  return (
    <button id={MENU_BUTTON_ID} type="button" className="menu-button" aria-controls="main-nav" aria-expanded={drawer.open} onClick={drawer.toggle}
      title={title ? `Menu · ${title}` : 'Menu'}>
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <path fill="currentColor" d="M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z" />
      </svg>
      <span className="visually-hidden">Menu{attention ? ` (${attention})` : ''}</span>
      {state && state !== 'up_to_date' && <span className={`menu-sync-dot ${state}`} aria-hidden="true" />}
    </button>
  );
}

/** The shade behind the open drawer: a tap on it closes the drawer. */
export function DrawerScrim({ drawer }: { drawer: NavDrawer }) {
  return drawer.open ? <div className="drawer-scrim" aria-hidden="true" onClick={drawer.close} /> : null;
}
