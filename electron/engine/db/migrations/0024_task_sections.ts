/**
 * Migration 24: the rep's day reads a user's open tasks by
 * reminder (the bell's count and the notification centre, every 30 seconds)
 * and completed ones newest first (the Tasks screen's Completed section).
 * With only (owner_id, completed, due_date), both read every open or every
 * completed task of the user and sort them: measured with 100 000 of each
 * for one user, ~250 ms per request. With these, a page or a count reads only
 * the rows it answers with. No rows are touched.
 */
export const sql = /* sql */ `
CREATE INDEX tasks_owner_remind ON tasks(owner_id, completed, remind_at) WHERE remind_at IS NOT NULL;
CREATE INDEX tasks_owner_completed ON tasks(owner_id, completed, completed_at);
`;
