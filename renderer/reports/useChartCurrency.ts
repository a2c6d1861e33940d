import { useEffect, useMemo } from 'react';
import type { CurrencyValues } from '../../shared/resources/report.js';
import { useSession } from '../session/sessionStore.js';
import { useReportFilters } from './reportsStore.js';
import { currenciesOf } from './reportMoney.js';

/**
 * The one currency a report's chart plots (charts never add up currencies):
 * the one chosen in the filters, else the account's. Tells the filters which
 * currencies the report's values came in, so the choice offers every one.
 */
export function useChartCurrency(report: string, values: readonly CurrencyValues[]): { currency: string; currencies: string[] } {
  const home = useSession((s) => s.account?.currency ?? 'USD');
  const chosen = useReportFilters((s) => s.currency);
  const currencies = useMemo(() => currenciesOf(values, home), [values, home]);
  const key = currencies.join(',');
  useEffect(() => useReportFilters.getState().noteCurrencies(report, key ? key.split(',') : []), [report, key]);
  return { currency: chosen ?? home, currencies };
}

/** The chart's caption for its currency: which one it shows, and that the table has the others. */
export function currencyCaption(currency: string, currencies: string[]): string {
  if (currencies.length === 0) return `Values in ${currency}.`;
  if (!currencies.includes(currency)) return `No values in ${currency}; the table shows every currency.`;
  return currencies.length > 1 ? `Values in ${currency}; the table shows every currency.` : `Values in ${currency}.`;
}
