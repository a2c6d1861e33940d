import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

export interface SideScroll {
  ref: RefObject<HTMLDivElement | null>;
  /** Content hidden to the left and to the right of what is in view. */
  more: { left: boolean; right: boolean };
  /** Scrolls by most of a view's width, towards `side`. */
  scroll(side: 'left' | 'right'): void;
}

/**
 * Follows whether an element that scrolls sideways (the deals board) has
 * more to either side, so the screen can say so and offer to scroll: on a
 * narrow window the columns past the edge are otherwise easy to miss.
 */
export function useSideScroll(): SideScroll {
  const ref = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ left: false, right: false });

  const measure = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    const left = element.scrollLeft > 2;
    const right = element.scrollLeft + element.clientWidth < element.scrollWidth - 2;
    setMore((old) => (old.left === left && old.right === right ? old : { left, right }));
  }, []);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const resized = new ResizeObserver(measure);
    const watchChildren = () => {
      resized.observe(element);
      for (const child of element.children) resized.observe(child);
    };
    // Columns come and go after mount (a pipeline's stages load, another pipeline is chosen): the board's
    // own box keeps its size then, so only its children say the content got wider.
    const changed = new MutationObserver(() => {
      watchChildren();
      measure();
    });
    watchChildren();
    changed.observe(element, { childList: true });
    element.addEventListener('scroll', measure, { passive: true });
    measure();
    return () => {
      resized.disconnect();
      changed.disconnect();
      element.removeEventListener('scroll', measure);
    };
  }, [measure]);

  const scroll = (side: 'left' | 'right') => {
    const element = ref.current;
    element?.scrollBy({ left: (side === 'right' ? 1 : -1) * element.clientWidth * 0.8, behavior: 'smooth' });
  };
  return { ref, more, scroll };
}
