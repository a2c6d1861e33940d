import { useMemo } from 'react';
import type { CurrencyValues } from '../../shared/resources/report.js';
import { convertValues, type ConvertedTotal, type RateTable } from '../../shared/money.js';
import { useExchangeRates } from '../money/useExchangeRates.js';

export interface ReportMoney {
  /** The account's currency: every chart plots it, every table total is in it. */
  into: string;
  rates: RateTable;
  convert(values: CurrencyValues): ConvertedTotal;
}

/** Report money converted into the account's currency with its exchange rates (shared/money.ts, as the hub's `converted_*` fields). */
export function useReportMoney(): ReportMoney {
  const { table, into } = useExchangeRates();
  return useMemo(() => ({ into, rates: table, convert: (values: CurrencyValues) => convertValues(values, into, table) }), [into, table]);
}

/** A converted total as a chart plots it (a float is precise enough for a bar's length; tables show the exact text). */
export const plottedTotal = (total: ConvertedTotal) => Number(total.total);

/**
 * The caption of a chart of money: it is in the account's currency, and which
 * currencies it leaves out for want of a rate (the table shows them apart).
 */
export function moneyCaption(money: ReportMoney, totals: readonly ConvertedTotal[]): string {
  const missing = [...new Set(totals.flatMap((t) => t.unconverted.map((u) => u.currency)))].sort();
  const mixed = totals.some((t) => t.originals.some((o) => o.currency !== money.into));
  const base = mixed ? `Values in ${money.into}, converted at the account's exchange rates.` : `Values in ${money.into}.`;
  if (missing.length === 0) return base;
  return `${base} Not in the chart: amounts in ${missing.join(', ')}, which ${missing.length === 1 ? 'has' : 'have'} no exchange rate (the table shows them).`;
}
