import type { Actor, EngineContext } from '../context.js';
import type { RawQuery } from '../resources/params.js';
import { recordsToCsv } from '../importExport/csvExport.js';
import { CONVERTED_FIELDS, type CurrencyValues, type ReportName, type ReportRows } from '../../../shared/resources/report.js';
import type { RateTable } from '../../../shared/money.js';
import { ExchangeRates } from '../resources/exchangeRates.js';
import { convertedAmount } from './money.js';
import { activitiesReport } from './activities.js';
import { leadConversionReport } from './leadConversion.js';
import { lossReasonsReport } from './lossReasons.js';
import { pipelineReport } from './pipeline.js';
import { productSalesReport } from './productSales.js';
import type { Report } from './report.js';
import { rejectUnknown } from './params.js';
import { wonLostReport } from './wonLost.js';

const REPORTS: { [N in ReportName]: Report<ReportRows[N]> } = {
  pipeline: pipelineReport,
  won_lost: wonLostReport,
  loss_reasons: lossReasonsReport,
  activities: activitiesReport,
  lead_conversion: leadConversionReport,
  product_sales: productSalesReport,
};

/**
 * Reports (extension, GET /v2/reports/*): aggregates computed from the
 * local tables on each request, so a replica answers them offline from its
 * synced copy exactly as the hub does.
 */
export class Reports {
  private readonly exchangeRates: ExchangeRates;

  constructor(private readonly ctx: EngineContext) {
    this.exchangeRates = new ExchangeRates(ctx);
  }

  /** Each row's JSON text, for the collection envelope. */
  rowsJson(name: ReportName, query: RawQuery, actor: Actor): string[] {
    return this.rows(name, query, actor).map((row) => JSON.stringify(row));
  }

  /** The report as CSV (the list exports' writer: UTF-8 BOM, CRLF, formula guard), one row per item, columns for people. */
  csv(name: ReportName, query: RawQuery, actor: Actor): string {
    const report = REPORTS[name] as Report<unknown>;
    const rows = this.rows(name, query, actor);
    const { records, columns } = report.csv(rows);
    const withConverted = records.map((record, i) => ({ ...record, ...convertedColumns(rows[i] as Record<string, unknown>) }));
    const sample = JSON.stringify(Object.fromEntries(columns.map((c) => [c, null])));
    return recordsToCsv(withConverted.map((r) => JSON.stringify(r)), [], sample);
  }

  private rows(name: ReportName, query: RawQuery, actor: Actor): unknown[] {
    const report = REPORTS[name] as Report<unknown>;
    rejectUnknown(query, report.params);
    // One read transaction: every query of a report sees the same snapshot, even while the sync writes.
    return this.ctx.db.transaction(() => {
      const into = this.ctx.statements.get('SELECT currency FROM account WHERE id = 1').pluck().get() as string;
      const rates = this.exchangeRates.table();
      return report.rows(this.ctx, query, actor).map((row) => withConverted(row as Record<string, unknown>, into, rates));
    })();
  }
}

/** Each money field of a row (`values`: per currency) also as one amount in the account's currency (`converted_value`). */
function withConverted(row: Record<string, unknown>, into: string, rates: RateTable): Record<string, unknown> {
  const converted: Record<string, unknown> = {};
  for (const [field, name] of Object.entries(CONVERTED_FIELDS)) {
    if (field in row) converted[name] = convertedAmount(row[field] as CurrencyValues, into, rates);
  }
  return { ...row, ...converted };
}

const CSV_LABELS: Record<string, string> = {
  converted_value: 'Value', converted_weighted_value: 'Weighted value', converted_won_value: 'Won value', converted_lost_value: 'Lost value',
};

/** `Value in USD` and, where a currency had no rate, `Value without a rate` ("CHF 1200.00"): the CSV's converted columns. */
function convertedColumns(row: Record<string, unknown>): Record<string, string> {
  const columns: Record<string, string> = {};
  for (const name of Object.values(CONVERTED_FIELDS)) {
    const amount = row[name] as { currency: string; amount: string; unconverted: CurrencyValues } | undefined;
    if (!amount) continue;
    columns[`${CSV_LABELS[name]} in ${amount.currency}`] = amount.amount;
    columns[`${CSV_LABELS[name]} without an exchange rate`] = Object.entries(amount.unconverted).map(([c, v]) => `${c} ${v}`).join('; ');
  }
  return columns;
}
