import { DECIMAL_SCALE, fromHundredths } from '../resources/decimal.js';
import type { ConvertedAmount, CurrencyValues } from '../../../shared/resources/report.js';
import { convertValues, type RateTable } from '../../../shared/money.js';
import { minorUnitsOf } from '../../../shared/currencies.js';

/**
 * SQL: a normalized decimal column (resources/decimal.ts: "1200.5", "3")
 * as integer hundredths, so SQLite sums money exactly, with no float on the
 * way. Read the sums with safeIntegers so large totals stay exact.
 */
export function hundredthsSql(column: string): string {
  // The whole part is what comes before the point ("1200.5" → 1200); the cents are the two digits after it, padded ("5" → "50").
  // Written so PostgreSQL runs it too (db/postgres): its CAST refuses "1200.5" as an integer, and a comparison is not a number there.
  const whole = `CAST(substr(${column}, 1, instr(${column} || '.', '.') - 1) AS INTEGER)`;
  const cents = `CASE WHEN instr(${column}, '.') > 0 THEN CAST(substr(${column} || '00', instr(${column}, '.') + 1, 2) AS INTEGER) ELSE 0 END`;
  return `(${whole} * 100 + ${cents})`;
}

/** Money per currency, summed in hundredths (BigInt); answered as decimal text with two decimals. */
export class CurrencySums {
  private readonly sums = new Map<string, bigint>();

  add(currency: string, hundredths: bigint | number): void {
    this.sums.set(currency, (this.sums.get(currency) ?? 0n) + BigInt(hundredths));
  }

  currencies(): string[] {
    return [...this.sums.keys()];
  }

  /** `{"EUR": "300.00", "USD": "1200.50"}`, currencies in code order. */
  json(): CurrencyValues {
    return Object.fromEntries([...this.sums].sort(([a], [b]) => (a < b ? -1 : 1)).map(([code, sum]) => [code, moneyText(sum)]));
  }
}

/** 120050n → "1200.50": always two decimals, as reports show money. */
export function moneyText(hundredths: bigint): string {
  const [integer, fraction = ''] = fromHundredths(hundredths).split('.');
  return `${integer}.${fraction.padEnd(DECIMAL_SCALE, '0')}`;
}

/**
 * Hundredths × percent, summed exactly in ten-thousandths, then rounded half
 * up to the cent once: the weighted value of a stage is rounded after the
 * sum, not deal by deal.
 */
export function roundPercentSum(hundredthsTimesPercent: bigint): bigint {
  return (hundredthsTimesPercent + 50n) / 100n;
}

/** part ÷ whole as "0.67" (half up), null when whole is 0. */
export function rateText(part: number, whole: number): string | null {
  if (whole === 0) return null;
  const hundredths = (BigInt(part) * 200n + BigInt(whole)) / (2n * BigInt(whole));
  return moneyText(hundredths);
}

/** Every currency that occurs in any row, in code order: the CSV's value columns. */
export function currenciesOf(values: CurrencyValues[]): string[] {
  return [...new Set(values.flatMap((v) => Object.keys(v)))].sort();
}

/** Money per currency as one amount in `into` (shared/money.ts), with the currency's minor units always written ("1200.50"). */
export function convertedAmount(values: CurrencyValues, into: string, rates: RateTable): ConvertedAmount {
  const total = convertValues(values, into, rates);
  const digits = minorUnitsOf(into);
  const [integer, fraction = ''] = total.total.split('.');
  const amount = digits === 0 ? integer : `${integer}.${fraction.padEnd(digits, '0')}`;
  return { currency: into, amount, unconverted: Object.fromEntries(total.unconverted.map((u) => [u.currency, values[u.currency]])) };
}
