import type { WonLostReportRow } from '../../../shared/resources/report.js';
import { closedDealSums } from './closedDeals.js';
import { CurrencySums, currenciesOf, rateText } from './money.js';
import { intervalOf, localDaySql, ownerOf, pipelineOf, rangeOf } from './params.js';
import { Periods } from './periods.js';
import { valueColumns, type Report } from './report.js';

interface SumRow { k0: string; k1: 'won' | 'lost'; currency: string; deals: bigint; hundredths: bigint }

/** Deals won and lost per period, by the local day they entered their won or lost stage, with the win rate. */
export const wonLostReport: Report<WonLostReportRow> = {
  params: ['pipeline_id', 'owner_id', 'from', 'to', 'interval'],

  rows(ctx, query, actor) {
    const ownerId = ownerOf(ctx, query, actor);
    const pipelineId = pipelineOf(ctx, query, false);
    const range = rangeOf(ctx, query);
    const periods = new Periods(range, intervalOf(query));
    const totals = periods.list.map(() => ({ won: 0, lost: 0, wonValues: new CurrencySums(), lostValues: new CurrencySums() }));
    const sums = closedDealSums<SumRow>(ctx, ['won', 'lost'], [localDaySql('d.last_stage_change_at', range), 's.category'], { range, ownerId, pipelineId });
    for (const row of sums) {
      const period = totals[periods.indexOf(row.k0)];
      if (row.k1 === 'won') {
        period.won += Number(row.deals);
        period.wonValues.add(row.currency, row.hundredths);
      } else {
        period.lost += Number(row.deals);
        period.lostValues.add(row.currency, row.hundredths);
      }
    }
    return periods.list.map((period, i) => {
      const t = totals[i];
      return {
        ...period, won_count: t.won, won_values: t.wonValues.json(), lost_count: t.lost, lost_values: t.lostValues.json(),
        win_rate: rateText(t.won, t.won + t.lost),
      };
    });
  },

  csv(rows) {
    const currencies = currenciesOf(rows.flatMap((r) => [r.won_values, r.lost_values]));
    const records = rows.map((r) => ({
      'Period start': r.period_start, 'Period end': r.period_end,
      Won: r.won_count, ...valueColumns('Won value', r.won_values, currencies),
      Lost: r.lost_count, ...valueColumns('Lost value', r.lost_values, currencies),
      'Win rate': r.win_rate,
    }));
    return { records, columns: ['Period start', 'Period end', 'Won', 'Lost', 'Win rate'] };
  },
};
