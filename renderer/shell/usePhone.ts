import { useSyncExternalStore } from 'react';

/** Below this width the layout is a phone's: the navigation is a drawer, tables are cards (styles.css uses the same number). */
export const PHONE_QUERY = '(max-width: 759.98px)';

const media = window.matchMedia(PHONE_QUERY);
const subscribe = (onChange: () => void) => {
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
};

/** Whether the window is phone-narrow now; follows resizes and rotations. */
export function usePhone(): boolean {
  return useSyncExternalStore(subscribe, () => media.matches);
}
