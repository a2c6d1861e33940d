/**
 * Migration 26: the reports (electron/engine/reports/) aggregate
 * every deal and a year of activities per request. Without these, a
 * report's range scan on a time index looks each row up in its table (a
 * year of calls is 75 000 lookups) and sorts the rows to group them, or
 * reads every row of a table with no index on its time at all (notes).
 * Each index here holds every column its report reads, in the order the
 * report groups by (deals: stage, currency, own likelihood; activities:
 * user, then time), so SQLite answers from the index alone, in order, with
 * no sort. Tasks already have (owner_id, completed, completed_at), from
 * migration 24. Measured with 100 000 deals and 300 000 activities: see
 * docs/benchmarks.md. No rows are touched.
 */
export const sql = /* sql */ `
CREATE INDEX deals_report ON deals(stage_id, currency, customized_win_likelihood, owner_id, last_stage_change_at, loss_reason_id, value);
CREATE INDEX calls_report ON calls(user_id, made_at);
CREATE INDEX notes_report ON notes(creator_id, created_at, type);
CREATE INDEX visits_report ON visits(creator_id, visited_at);
CREATE INDEX leads_report ON leads(created_at, owner_id, source_id);
CREATE INDEX line_items_report ON line_items(order_id, product_id, currency, quantity, value);
`;
