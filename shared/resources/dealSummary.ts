/** GET /v2/deals/summary (extension): one stage's deals, how many and their value summed per currency (exact decimal text). */
export interface StageTotal {
  stage_id: number;
  count: number;
  totals: { currency: string; value: string }[];
}

export interface DealSummary {
  stages: StageTotal[];
}
