/**
 * Migration 22: what devices lacked reaches them.
 *
 * - Custom field definitions: not in the change log before (a replica had
 *   none, so it refused to save any record with custom field values); from
 *   now on their writes are. Definitions that already exist get a `created`
 *   entry, so a device that synced before receives them on its next pull (a
 *   device only looks at revisions above its watermark: these are new ones).
 * - The account: a replica now keeps whether an SMTP server is set (its
 *   `smtp_configured`), which it had dropped; sent again for the same reason.
 */
export const sql = /* sql */ `
INSERT INTO change_log (resource_type, resource_id, event_type, actor_id, changed_at)
  SELECT 'custom_field', d.id, 'created', NULL, d.updated_at FROM custom_field_definitions d
  WHERE NOT EXISTS (SELECT 1 FROM record_revisions r WHERE r.resource_type = 'custom_field' AND r.resource_id = d.id)
  ORDER BY d.id;
INSERT INTO change_log (resource_type, resource_id, event_type, actor_id, changed_at)
  SELECT 'account', id, 'updated', NULL, updated_at FROM account;
`;
