/**
 * Migration 9: idempotency keys (http/idempotency.ts). A write sent with
 * `Idempotency-Key` is answered once and its answer kept for a day, so a
 * client that lost the answer (a replica retrying its outbox) can send the
 * same request again without creating twice. `status` is NULL while the
 * first request is still being handled.
 */
export const sql = /* sql */ `
CREATE TABLE idempotency_keys (
  user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  key           TEXT NOT NULL,
  fingerprint   TEXT NOT NULL,
  status        INTEGER,
  content_type  TEXT,
  body          TEXT,
  created_at    TEXT NOT NULL,
  PRIMARY KEY (user_id, key)
) WITHOUT ROWID;
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
`;
