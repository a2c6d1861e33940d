import type { CurrencyValues } from '../../shared/resources/report.js';
import { ConvertedMoney } from '../money/Money.js';
import type { ReportMoney } from './useReportMoney.js';

/**
 * A report's money cell: one amount in the account's currency; where it was
 * made of other currencies, it opens to list them with their rates, and what
 * had no rate follows it in its own currency. "—" for nothing.
 */
export function ReportAmount({ values, money }: { values: CurrencyValues; money: ReportMoney }) {
  if (Object.keys(values).length === 0) return <span className="muted">—</span>;
  return <ConvertedMoney total={money.convert(values)} rates={money.rates} />;
}
