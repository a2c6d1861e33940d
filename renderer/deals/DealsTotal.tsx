import { useEffect, useState } from 'react';
import type { QueryValue } from '../../shared/bridge.js';
import type { DealSummary } from '../../shared/resources/dealSummary.js';
import { convertTotal, type ConvertedTotal, type RateTable } from '../../shared/money.js';
import { api } from '../api/client.js';
import { ConvertedMoney } from '../money/Money.js';
import { useExchangeRates } from '../money/useExchangeRates.js';

/** What a list query has that the summary does not take (it has no pages or order). */
const NOT_FILTERS = new Set(['page', 'per_page', 'count', 'sort_by']);

/** The list's query as the summary takes it: its filters (and smart list) only. */
export function summaryQuery(query: Record<string, QueryValue>): Record<string, QueryValue> {
  return Object.fromEntries(Object.entries(query).filter(([name, value]) => !NOT_FILTERS.has(name) && value !== undefined));
}

/** Every stage's sums per currency, added up and converted into the account's currency. */
function totalOf(summary: DealSummary, into: string, rates: RateTable): ConvertedTotal {
  const amounts = summary.stages.flatMap((s) => s.totals.map((t) => ({ currency: t.currency, amount: t.value })));
  return convertTotal(amounts, into, rates);
}

/**
 * The value of every deal the list's filters select (all pages, not only
 * those loaded), in the account's currency: the hub's sums per currency
 * (GET /v2/deals/summary with the list's own filters) converted with the
 * exchange rates. `version` changes when the list was reloaded in place.
 */
export function DealsTotal({ query, version }: { query: Record<string, QueryValue>; version: number }) {
  const { table, into } = useExchangeRates();
  // The answer with the query it answers: while that differs from the current one, the new total is on its way.
  const [loaded, setLoaded] = useState<{ key: string; summary: DealSummary } | null>(null);
  const [failed, setFailed] = useState(false);
  const key = JSON.stringify(summaryQuery(query));

  useEffect(() => {
    let live = true;
    api.get<DealSummary>('/v2/deals/summary', JSON.parse(key) as Record<string, QueryValue>).then(
      (summary) => {
        if (!live) return;
        setLoaded({ key, summary });
        setFailed(false);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [key, version]);

  const summary = loaded?.key === key ? loaded.summary : null;
  if (failed) return <span className="list-total muted">Total not available</span>;
  return (
    <span className="list-total" aria-live="polite">
      <span className="muted">Total</span>{' '}
      {summary ? <ConvertedMoney total={totalOf(summary, into, table)} rates={table} /> : <span className="muted">…</span>}
    </span>
  );
}
