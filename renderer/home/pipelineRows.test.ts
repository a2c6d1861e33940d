import { describe, expect, it } from 'vitest';
import type { Pipeline, Stage } from '../../shared/resources/deal.js';
import { pipelineRows } from './pipelineRows.js';

const pipeline = { id: 1, name: 'Sales' } as Pipeline;
const stage = (id: number, category: Stage['category']) => ({ id, pipeline_id: 1, name: `Stage ${id}`, category } as Stage);
const stages = [stage(1, 'incoming'), stage(2, 'in_progress'), stage(3, 'won')];
const rates = new Map([['EUR', '1.1']]);

describe('Home pipeline rows', () => {
  it('converts each open stage and the pipeline into the account currency, keeping the hub\'s sums', () => {
    const [rows] = pipelineRows([pipeline], stages, [
      { stage_id: 1, count: 2, totals: [{ currency: 'USD', value: '100' }, { currency: 'EUR', value: '10.05' }] },
      { stage_id: 2, count: 1, totals: [{ currency: 'EUR', value: '0.05' }] },
      { stage_id: 3, count: 9, totals: [{ currency: 'USD', value: '999' }] },
    ], 'USD', rates);
    expect(rows.stages.map((r) => [r.stage.id, r.converted.total])).toEqual([[1, '111.06'], [2, '0.06']]);
    // The open deals' total is converted from the exact sums (10.10 EUR → 11.11), not from the rounded stage totals (111.06 + 0.06).
    expect(rows.converted.total).toBe('111.11');
    expect(rows.totals).toEqual([{ currency: 'USD', value: '100' }, { currency: 'EUR', value: '10.1' }]);
    expect(rows.count).toBe(3);
  });

  it('keeps a currency without a rate apart', () => {
    const [rows] = pipelineRows([pipeline], stages, [{ stage_id: 1, count: 1, totals: [{ currency: 'CHF', value: '5' }] }], 'USD', rates);
    expect(rows.converted).toMatchObject({ total: '0', unconverted: [{ currency: 'CHF', amount: '5' }] });
  });
});
