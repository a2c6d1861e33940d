import { useEffect, useState } from 'react';

/** `value` once it stopped changing for `delayMs`: a search sent when the typing pauses, not on every key. */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
