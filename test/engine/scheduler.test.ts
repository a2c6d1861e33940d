import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine, type Engine } from '../../electron/engine/engine.js';
import { ManualClock } from '../../electron/engine/clock.js';
import { addDelay } from '../../electron/engine/resources/enrollments.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer.js';
import type { Actor } from '../../electron/engine/context.js';

describe('weekday delays', () => {
  const at = (iso: string, n: number, offset = 0) => addDelay(new Date(iso), n, 'weekdays', offset).toISOString();

  it('count Monday to Friday only, keeping the time of day', () => {
    expect(at('2026-03-02T10:00:00.000Z', 1)).toBe('2026-03-03T10:00:00.000Z'); // Mon → Tue
    expect(at('2026-03-06T10:00:00.000Z', 1)).toBe('2026-03-09T10:00:00.000Z'); // Fri → Mon
    expect(at('2026-03-05T10:00:00.000Z', 2)).toBe('2026-03-09T10:00:00.000Z'); // Thu → Mon
    expect(at('2026-03-07T10:00:00.000Z', 1)).toBe('2026-03-09T10:00:00.000Z'); // Sat → Mon
    expect(at('2026-03-08T10:00:00.000Z', 1)).toBe('2026-03-09T10:00:00.000Z'); // Sun → Mon
    expect(at('2026-03-06T10:00:00.000Z', 6)).toBe('2026-03-16T10:00:00.000Z'); // Fri + 6 → Mon a week later
    expect(at('2026-03-07T10:00:00.000Z', 0)).toBe('2026-03-07T10:00:00.000Z'); // none: at once
  });

  it('count days in the account time zone', () => {
    // Friday 23:30 UTC is already Saturday 00:30 at UTC+01:00: the next weekday there is Monday.
    expect(at('2026-03-06T23:30:00.000Z', 1, 60)).toBe('2026-03-08T23:30:00.000Z');
    expect(at('2026-03-06T23:30:00.000Z', 1, 0)).toBe('2026-03-09T23:30:00.000Z');
  });
});

describe('the scheduler across engine restarts', () => {
  let smtp: TestSmtpServer;
  let dataDir: string;
  const clock = new ManualClock('2026-03-02T09:00:00Z');
  let engine: Engine;
  let actor: Actor;
  let enrollmentId: number;

  const open = () => openEngine({ dataDir, clock });
  const statuses = () => engine.enrollments.steps(enrollmentId).map((s) => s.status);

  beforeAll(async () => {
    smtp = await startSmtpServer();
    dataDir = mkdtempSync(join(tmpdir(), 'outpost-scheduler-'));
    engine = open();
    const userId = await engine.users.create({ email: 'rep@example.com', password: 'rep-secret-1', name: 'Rita Rep', role: 'admin' });
    actor = { userId, role: 'admin', scopes: new Set(['read', 'write']) };
    engine.accounts.update({ smtp_url: smtp.url }, actor);
    const templateId = engine.emailTemplates.create({ name: 'T', subject: 'Hi {{contact.first_name}}', body: 'Body' }, actor);
    const email = (delay: number) => ({ delay_from_previous_step: delay, delay_from_previous_step_unit: 'hours', action_type: 'automated_email', action_properties: { email_template_id: templateId, is_reply: false } });
    const sequenceId = engine.sequences.create({ name: 'Restart', steps: [email(0), email(1), email(1)] }, actor);
    const contactId = engine.contacts.create({ first_name: 'Kim', last_name: 'Kay', email: 'kim@example.com' }, actor);
    enrollmentId = engine.enrollments.create({ sequence_id: sequenceId, resource_type: 'contact', resource_id: contactId }, actor);
  });
  afterAll(async () => {
    engine.close();
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('does not send an email again after a restart in the middle of the sequence', async () => {
    await engine.scheduler!.tick();
    expect(smtp.messages).toHaveLength(1);
    engine.close();
    engine = open();
    await engine.scheduler!.tick();
    await engine.scheduler!.tick();
    expect(smtp.messages).toHaveLength(1);
    expect(statuses()).toEqual(['completed', 'scheduled', 'scheduled']);
    clock.advance(3_600_000);
    await engine.scheduler!.tick();
    expect(smtp.messages).toHaveLength(2);
    expect(new Set(smtp.messages.map((m) => m.messageId)).size).toBe(2);
  });

  it('blocks an email caught in the middle of sending (unknown) instead of sending it blindly', async () => {
    // As a crash leaves it: claimed (in_progress with its attempt key), its fate unknown.
    const third = engine.enrollments.steps(enrollmentId)[2];
    clock.advance(3_600_000);
    engine.enrollments.startStep(third.id, { attempt_key: 'crashed-attempt', executed_at: '2026-03-02T11:00:00Z' });
    engine.close();
    engine = open();
    await engine.scheduler!.tick();
    expect(smtp.messages).toHaveLength(2);
    expect(statuses()).toEqual(['completed', 'completed', 'blocked']);
    expect(engine.enrollments.steps(enrollmentId)[2]).toMatchObject({ status: 'blocked' });
    expect(JSON.parse(engine.enrollments.json(enrollmentId))).toMatchObject({ state: 'blocked' });
    expect(engine.db.prepare('SELECT failure_reason FROM enrollment_steps WHERE id = ?').pluck().get(third.id)).toBe('unknown');
    // A person who checked resumes it: it is sent (once) and the enrollment finishes.
    engine.enrollments.update(enrollmentId, { state: 'active' }, actor);
    await engine.scheduler!.tick();
    expect(smtp.messages).toHaveLength(3);
    expect(JSON.parse(engine.enrollments.json(enrollmentId))).toMatchObject({ state: 'finished', finished_reason: 'all_steps_completed' });
  });

  it('runs nothing after the engine is closed', async () => {
    const scheduler = engine.scheduler!;
    engine.close();
    await scheduler.tick();
    engine = open();
    expect(smtp.messages).toHaveLength(3);
  });
});
