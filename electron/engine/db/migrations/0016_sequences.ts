/**
 * Migration 16: email templates and sequences.
 *
 * A sequence is an ordered list of steps, each waiting a delay (hours, or
 * weekdays: Monday to Friday) after the previous one and then sending an
 * email made from a template or creating a task. Steps are rows of their own
 * (zero-based `position`, unique in the sequence), replaced as a whole
 * whenever a sequence's `steps` are written. Enrollments copy them when they
 * start (migration 17), so editing a sequence never changes a running one.
 *
 * Foreign keys are off on a desktop replica: the engine removes a sequence's
 * steps itself, ON DELETE CASCADE only backs it up on a hub.
 */
export const sql = /* sql */ `
CREATE TABLE email_templates (
  id          INTEGER PRIMARY KEY,
  creator_id  INTEGER REFERENCES users(id),
  name        TEXT NOT NULL UNIQUE,
  subject     TEXT NOT NULL,
  body        TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);

CREATE TABLE sequences (
  id                   INTEGER PRIMARY KEY,
  creator_id           INTEGER REFERENCES users(id),
  name                 TEXT NOT NULL UNIQUE,
  unsubscribe_enabled  INTEGER NOT NULL DEFAULT 0,
  unsubscribe_locale   TEXT NOT NULL DEFAULT 'en',
  created_at           TEXT NOT NULL,
  updated_at           TEXT NOT NULL
);

CREATE TABLE sequence_steps (
  id                             INTEGER PRIMARY KEY,
  sequence_id                    INTEGER NOT NULL REFERENCES sequences(id) ON DELETE CASCADE,
  position                       INTEGER NOT NULL CHECK (position >= 0),
  delay_from_previous_step       INTEGER NOT NULL CHECK (delay_from_previous_step >= 0),
  delay_from_previous_step_unit  TEXT NOT NULL CHECK (delay_from_previous_step_unit IN ('hours', 'weekdays')),
  action_type                    TEXT NOT NULL CHECK (action_type IN ('automated_email', 'task')),
  email_template_id              INTEGER REFERENCES email_templates(id),
  is_reply                       INTEGER NOT NULL DEFAULT 0,
  task_content                   TEXT,
  UNIQUE (sequence_id, position)
);
CREATE INDEX sequence_steps_template ON sequence_steps(email_template_id);
`;
