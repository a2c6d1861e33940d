import type { LossReasonReportRow } from '../../../shared/resources/report.js';
import { closedDealSums } from './closedDeals.js';
import { CurrencySums, currenciesOf } from './money.js';
import { ownerOf, pipelineOf, rangeOf } from './params.js';
import { valueColumns, type Report } from './report.js';

interface SumRow { k0: bigint | null; k1: string | null; currency: string; deals: bigint; hundredths: bigint }

export const NO_REASON = 'No reason given';

/** Deals lost in the range (same rule as won/lost), per loss reason, most deals first. */
export const lossReasonsReport: Report<LossReasonReportRow> = {
  params: ['pipeline_id', 'owner_id', 'from', 'to'],

  rows(ctx, query, actor) {
    const ownerId = ownerOf(ctx, query, actor);
    const pipelineId = pipelineOf(ctx, query, false);
    const range = rangeOf(ctx, query);
    const groupBy = ['d.loss_reason_id', '(SELECT r.name FROM loss_reasons r WHERE r.id = d.loss_reason_id)'];
    const reasons = new Map<number | null, { name: string; count: number; values: CurrencySums }>();
    for (const row of closedDealSums<SumRow>(ctx, ['lost'], groupBy, { range, ownerId, pipelineId })) {
      const id = row.k0 === null ? null : Number(row.k0);
      const reason = reasons.get(id) ?? { name: id === null ? NO_REASON : (row.k1 ?? `Loss reason ${id}`), count: 0, values: new CurrencySums() };
      reason.count += Number(row.deals);
      reason.values.add(row.currency, row.hundredths);
      reasons.set(id, reason);
    }
    return [...reasons]
      .map(([id, r]) => ({ loss_reason_id: id, name: r.name, deals_count: r.count, values: r.values.json() }))
      .sort((a, b) => b.deals_count - a.deals_count || a.name.localeCompare(b.name));
  },

  csv(rows) {
    const currencies = currenciesOf(rows.map((r) => r.values));
    const records = rows.map((r) => ({ 'Loss reason': r.name, Deals: r.deals_count, ...valueColumns('Value', r.values, currencies) }));
    return { records, columns: ['Loss reason', 'Deals'] };
  },
};
