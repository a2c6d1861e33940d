/**
 * Migration 14: the account's add-ons and the admin switch for changes to
 * products, orders and line items. Plans are named as in
 * shared/resources/account.ts: the hub's first default, `enterprise`, becomes
 * the top plan, `elite`, since a self-hosted team gets everything.
 */
export const sql = /* sql */ `
ALTER TABLE account ADD COLUMN addons TEXT NOT NULL DEFAULT '["outbound_sequences"]';
ALTER TABLE account ADD COLUMN commerce_changes TEXT NOT NULL DEFAULT 'enabled' CHECK (commerce_changes IN ('enabled', 'disabled'));
UPDATE account SET plan = 'elite' WHERE plan = 'enterprise';
INSERT INTO change_log (resource_type, resource_id, event_type, actor_id, changed_at)
  SELECT 'account', id, 'updated', NULL, updated_at FROM account;
`;
