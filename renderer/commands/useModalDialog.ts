import { useEffect, useRef } from 'react';

/**
 * A native modal <dialog> shown while the component is mounted: the
 * browser keeps focus inside it and turns Escape into a `cancel` event.
 * Focus goes to `initialFocus` (else the first field), and back to where it
 * was before when the dialog goes, if that element is still on the page.
 */
export function useModalDialog(initialFocus?: () => HTMLElement | null) {
  const dialog = useRef<HTMLDialogElement>(null);
  const focusFirst = useRef(initialFocus);

  useEffect(() => {
    const element = dialog.current;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!element) return;
    if (!element.open) element.showModal();
    const first = focusFirst.current?.() ?? element.querySelector<HTMLElement>('input:not([type=checkbox]), textarea, select');
    first?.focus();
    return () => {
      if (element.open) element.close();
      if (before?.isConnected) before.focus();
    };
  }, []);

  return dialog;
}
