import type { Actor, EngineContext } from '../context.js';
import type { RawQuery } from '../resources/params.js';
import { recordsToCsv } from '../importExport/csvExport.js';
import type { ReportName, ReportRows } from '../../../shared/resources/report.js';
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
  constructor(private readonly ctx: EngineContext) {}

  /** Each row's JSON text, for the collection envelope. */
  rowsJson(name: ReportName, query: RawQuery, actor: Actor): string[] {
    return this.rows(name, query, actor).map((row) => JSON.stringify(row));
  }

  /** The report as CSV (the list exports' writer: UTF-8 BOM, CRLF, formula guard), one row per item, columns for people. */
  csv(name: ReportName, query: RawQuery, actor: Actor): string {
    const report = REPORTS[name] as Report<unknown>;
    const { records, columns } = report.csv(this.rows(name, query, actor));
    const sample = JSON.stringify(Object.fromEntries(columns.map((c) => [c, null])));
    return recordsToCsv(records.map((r) => JSON.stringify(r)), [], sample);
  }

  private rows(name: ReportName, query: RawQuery, actor: Actor): unknown[] {
    const report = REPORTS[name] as Report<unknown>;
    rejectUnknown(query, report.params);
    // One read transaction: every query of a report sees the same snapshot, even while the sync writes.
    return this.ctx.db.transaction(() => report.rows(this.ctx, query, actor))();
  }
}
