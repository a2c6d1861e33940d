import { useRouter } from '../router/routerStore.js';
import { appPath } from './commands.js';
import { useCommands } from './commandStore.js';

/**
 * Follows the desktop shell's deep links (bridge 'open-path' events,
 * `outpost://contacts/12`) until stopped (returns the stop). Listened to from
 * the app's start, so a link the app was launched with is not missed while
 * the session loads; only app paths are followed (see `appPath`). Nothing
 * to follow in a browser.
 */
export function listenForOpenPaths(): () => void {
  const stop = window.outpost?.on('open-path', (payload) => {
    const path = appPath(payload);
    if (path === null) return;
    useCommands.getState().closePalette();
    useRouter.getState().navigate(path);
  });
  return () => stop?.();
}
