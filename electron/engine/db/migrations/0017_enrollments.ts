/**
 * Migration 17: sequence enrollments, their steps (copied from the sequence
 * when the enrollment starts, so later edits of the sequence never change a
 * running one) and the account's outgoing mail settings.
 *
 * Each enrollment step carries its action's state (`status`, times,
 * `failure_reason`, the task it created). `attempt_key` is set when the
 * scheduler claims an email, in the same transaction that marks it
 * `in_progress`, before anything is sent: after a crash the claimed email is
 * recognised and never sent a second time without a person deciding so.
 *
 * `sequence_json` is the sequence's summary (id, name, steps_total, …) as
 * it was at the start: the enrollment shows what it runs, even after the
 * sequence is renamed or deleted.
 *
 * `account.smtp_url` holds the SMTP server to send through
 * (`smtp://user:pass@host:port`; NULL: sending is off), and
 * `email_daily_quota` caps automated emails per UTC day for the account.
 */
export const sql = /* sql */ `
CREATE TABLE sequence_enrollments (
  id                     INTEGER PRIMARY KEY,
  sequence_id            INTEGER NOT NULL,
  actor_id               INTEGER NOT NULL REFERENCES users(id),
  resource_type          TEXT NOT NULL CHECK (resource_type IN ('lead', 'contact')),
  resource_id            INTEGER NOT NULL,
  state                  TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'blocked', 'finished')),
  current_step_position  INTEGER NOT NULL DEFAULT 0,
  finished_at            TEXT,
  finished_reason        TEXT CHECK (finished_reason IN ('manual', 'all_steps_completed', 'replied_to_email', 'resource_deleted', 'subscription_cancelled', 'task_deleted')),
  finished_actor_id      INTEGER,
  sequence_json          TEXT NOT NULL,
  created_at             TEXT NOT NULL,
  updated_at             TEXT NOT NULL
);
CREATE INDEX sequence_enrollments_resource ON sequence_enrollments(resource_type, resource_id);
CREATE INDEX sequence_enrollments_state ON sequence_enrollments(state);

CREATE TABLE enrollment_steps (
  id                             INTEGER PRIMARY KEY,
  enrollment_id                  INTEGER NOT NULL REFERENCES sequence_enrollments(id) ON DELETE CASCADE,
  position                       INTEGER NOT NULL,
  delay_from_previous_step       INTEGER NOT NULL,
  delay_from_previous_step_unit  TEXT NOT NULL CHECK (delay_from_previous_step_unit IN ('hours', 'weekdays')),
  action_type                    TEXT NOT NULL CHECK (action_type IN ('automated_email', 'task')),
  action_properties              TEXT NOT NULL DEFAULT '{}',
  status                         TEXT NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'in_progress', 'completed', 'blocked', 'cancelled')),
  estimated_execute_at           TEXT,
  executed_at                    TEXT,
  failure_reason                 TEXT,
  task_id                        INTEGER,
  task_content                   TEXT,
  attempt_key                    TEXT UNIQUE,
  UNIQUE (enrollment_id, position)
);
CREATE INDEX enrollment_steps_due ON enrollment_steps(status, estimated_execute_at);

ALTER TABLE account ADD COLUMN smtp_url TEXT;
ALTER TABLE account ADD COLUMN email_daily_quota INTEGER NOT NULL DEFAULT 500;
`;
