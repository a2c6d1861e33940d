const number = (n: number) => n.toLocaleString();

/**
 * Where the rows shown are in the whole list: "1–100 of 50,000" (from the
 * API's `meta.total_count`), or "100 shown" until the total is known.
 * `from` is the first row's place, for lists read a page at a time.
 */
export function countText(shown: number, total: number | null, from = 1): string {
  if (total === null) return `${number(shown)} shown`;
  if (shown === 0) return `0 of ${number(total)}`;
  return `${number(from)}–${number(from + shown - 1)} of ${number(total)}`;
}

/** The count beside a list's filters, read out when it changes. */
export function ListCount({ shown, total, from, loading = false }: { shown: number; total: number | null; from?: number; loading?: boolean }) {
  return <span className="muted count" aria-live="polite">{loading && shown === 0 ? 'Loading…' : countText(shown, total, from)}</span>;
}
