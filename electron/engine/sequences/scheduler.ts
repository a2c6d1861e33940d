import { randomUUID } from '../platform/crypto.js';
import type { Actor, EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import type { Accounts } from '../resources/account.js';
import { SEQUENCES_ADDON, type Enrollments, type StepRow } from '../resources/enrollments.js';
import type { MergeContext, Rendered } from '../resources/emailTemplates.js';
import type { FailureReason } from '../../../shared/resources/sequence.js';
import { failureReasonOf, type Mailer, type OutgoingEmail } from './mail.js';
import type { PostgresDatabase } from '../db/postgres/database.js';
import { DatabaseUnavailableError } from '../db/databaseErrors.js';
import { environment } from '../platform/env.js';
import { unrefTimer } from '../platform/timers.js';

/** What the scheduler needs from the rest of the engine (passed lazily: they are built around it). */
export interface SchedulerDeps {
  enrollments: Enrollments;
  accounts: Accounts;
  templates: () => { render(templateId: number, context: MergeContext): Rendered };
  createTask: (data: Record<string, unknown>, actor: Actor) => number;
  /** The API JSON of a contact, lead or user, or undefined when it is gone. */
  recordJson: (type: 'contact' | 'lead' | 'user', id: number) => Record<string, unknown> | undefined;
  mailer: Mailer;
}

type DueStep = StepRow & { e_actor_id: number; e_resource_type: 'lead' | 'contact'; e_resource_id: number };

/** Steps with no delay run in the same tick as the one before; this bounds the rounds of one tick. */
const MAX_ROUNDS = 50;

const EMAIL_ADDRESS = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/** The PostgreSQL advisory lock a hub node holds while its scheduler runs (any fixed number: it names the one sender). */
export const SENDER_LOCK = 7_356_612;

/** How often a hub runs due steps unless told: every 15 s. */
const DEFAULT_INTERVAL_MS = 15_000;

/**
 * How often a hub's scheduler runs: `OUTPOST_SCHEDULER_INTERVAL_MS` if set
 * (tests of real hub processes shorten it), else every 15 seconds.
 */
export function schedulerIntervalFromEnv(env: Readonly<Record<string, string | undefined>> = environment()): number {
  const given = env.OUTPOST_SCHEDULER_INTERVAL_MS;
  if (given === undefined || given === '') return DEFAULT_INTERVAL_MS;
  if (!/^\d+$/.test(given) || Number(given) < 100) {
    throw new Error(`OUTPOST_SCHEDULER_INTERVAL_MS must be a whole number of milliseconds, at least 100 (given: ${given})`);
  }
  return Number(given);
}

/**
 * Runs the steps of sequence enrollments when their time comes, on the
 * engine's clock. A run (`tick()`) settles task steps whose task was
 * completed or deleted, ends every open enrollment when the account lost
 * the add-on, then executes each due step: an email is rendered and sent
 * over SMTP, a task is created.
 *
 * No double execution: a task is created in the same transaction that marks
 * its step in_progress; an email step is claimed (in_progress + a unique
 * attempt key, committed) before it is sent. An email still in_progress
 * when the engine starts again may or may not have left: it is never resent
 * by itself but blocked with failure_reason `unknown`, for a person to
 * check and resume (which sends it again).
 *
 * On a PostgreSQL hub of several nodes, one sender: a run goes ahead only on
 * the node that gets the advisory lock SENDER_LOCK (held for the run, on the
 * engine's one connection); the others skip that round. So the emails
 * claimed but unsettled that a run finds were left by a run that ended
 * without settling them (a node stopped or lost mid-send): they are
 * recovered at the start of each run there, not when a node starts (another
 * node may be sending them at that moment). Should two runs ever overlap
 * anyway, a claim is an update of a step still `scheduled`: only one wins.
 * Every write here takes the hub's write lock (`.immediate()`), as REST
 * writes do, so the change log stays in order across nodes.
 */
export class Scheduler {
  private queue: Promise<void> = Promise.resolve();
  private busy = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** The connection SENDER_LOCK was taken on (PostgreSQL): the lock is held only while it is the one answering. */
  private lockConnection = 0;

  constructor(private readonly ctx: EngineContext, private readonly deps: SchedulerDeps) {
    if (ctx.db.dialect === 'sqlite') this.recoverInterruptedSends();
  }

  /** Ticks every `intervalMs` (the hub does; tests call tick() themselves). */
  start(intervalMs: number): void {
    if (this.timer || intervalMs <= 0) return;
    this.timer = setInterval(() => {
      if (!this.busy) void this.tick();
    }, intervalMs);
    unrefTimer(this.timer);
  }

  /** No step runs after this; an email being sent finishes on the wire but is not recorded (it is recovered as `unknown`). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.deps.mailer.close();
  }

  /** One run over everything due now; runs never overlap. Resolves when this run is done. */
  tick(): Promise<void> {
    this.queue = this.queue.then(() => this.runOnce()).catch((error: unknown) => {
      console.error('sequence scheduler run failed', error);
    });
    return this.queue;
  }

  private async runOnce(): Promise<void> {
    if (this.stopped || !this.takeSenderLock()) return;
    this.busy = true;
    try {
      if (this.ctx.db.dialect === 'postgres') this.recoverInterruptedSends();
      if (!this.deps.accounts.hasAddon(SEQUENCES_ADDON)) this.finishAll('subscription_cancelled');
      this.settleTasks();
      for (let round = 0; round < MAX_ROUNDS && !this.stopped; round++) {
        const due = this.dueSteps();
        if (due.length === 0) break;
        for (const step of due) {
          if (this.stopped || !this.stillSender()) return;
          await this.execute(step);
        }
      }
    } finally {
      this.busy = false;
      this.releaseSenderLock();
    }
  }

  /** On PostgreSQL, whether this node is the one sending this round; on SQLite (one process per data folder), always. */
  private takeSenderLock(): boolean {
    if (this.ctx.db.dialect !== 'postgres') return true;
    const db = this.ctx.db as PostgresDatabase;
    const { rows } = db.query('SELECT pg_try_advisory_lock($1) AS taken', [SENDER_LOCK]);
    this.lockConnection = db.connection;
    return rows[0]?.taken === 1;
  }

  /**
   * Whether this node still holds SENDER_LOCK: a session lock is its
   * connection's, and a lost connection (the database restarted, the backend
   * was terminated) took it along, so another node may be sending now. The
   * run then stops; the next one asks for the lock again.
   */
  private stillSender(): boolean {
    return this.ctx.db.dialect !== 'postgres' || (this.ctx.db as PostgresDatabase).connection === this.lockConnection;
  }

  private releaseSenderLock(): void {
    // On another connection there is nothing to release: the lost one released the lock with it.
    if (this.ctx.db.dialect !== 'postgres' || !this.stillSender()) return;
    try {
      (this.ctx.db as PostgresDatabase).query('SELECT pg_advisory_unlock($1)', [SENDER_LOCK]);
    } catch (error) {
      // Stopped while sending, or the connection lost meanwhile: either released the lock with it.
      if (!this.stopped && !(error instanceof DatabaseUnavailableError)) throw error;
    }
  }

  /** A write of the scheduler's, in a transaction holding the hub's write lock (a savepoint inside one already open). */
  private write<T>(fn: () => T): T {
    return this.ctx.db.transaction(fn).immediate();
  }

  private finishAll(reason: 'subscription_cancelled'): void {
    const open = this.ctx.statements.get("SELECT id FROM sequence_enrollments WHERE state != 'finished'").pluck().all() as number[];
    for (const id of open) this.write(() => this.deps.enrollments.finish(id, reason, null));
  }

  /** Task steps wait for their task: completed → the step is done (the next one counts from then); deleted → the enrollment ends. */
  private settleTasks(): void {
    const waiting = this.ctx.statements.get(`SELECT s.id, s.enrollment_id, t.id AS task, t.completed, t.completed_at
        FROM enrollment_steps s JOIN sequence_enrollments e ON e.id = s.enrollment_id LEFT JOIN tasks t ON t.id = s.task_id
        WHERE s.action_type = 'task' AND s.status = 'in_progress' AND e.state != 'finished'`)
      .all() as { id: number; enrollment_id: number; task: number | null; completed: number | null; completed_at: string | null }[];
    for (const step of waiting) {
      if (step.task === null) this.write(() => this.deps.enrollments.finish(step.enrollment_id, 'task_deleted', null));
      else if (step.completed === 1) this.write(() => this.deps.enrollments.completeStep(step.id, new Date(step.completed_at ?? this.ctx.clock.now())));
    }
  }

  /** The current step of each active enrollment whose time has come, earliest first. */
  private dueSteps(): DueStep[] {
    return this.ctx.statements.get(`SELECT s.*, e.actor_id AS e_actor_id, e.resource_type AS e_resource_type, e.resource_id AS e_resource_id
        FROM enrollment_steps s JOIN sequence_enrollments e ON e.id = s.enrollment_id
        WHERE e.state = 'active' AND s.status = 'scheduled' AND s.position = e.current_step_position AND s.estimated_execute_at <= ?
        ORDER BY s.estimated_execute_at, s.id`).all(isoSeconds(this.ctx.clock.now())) as DueStep[];
  }

  private async execute(step: DueStep): Promise<void> {
    if (step.action_type === 'task') this.createTask(step);
    else await this.sendEmail(step);
  }

  /** The task and the step's in_progress state are written together: a restart cannot create it twice. */
  private createTask(step: DueStep): void {
    const now = isoSeconds(this.ctx.clock.now());
    const actor: Actor = { userId: step.e_actor_id, role: 'user', scopes: new Set() };
    this.write(() => {
      // Read under the write lock: a step another run started meanwhile gets no second task.
      const status = this.ctx.statements.get('SELECT status FROM enrollment_steps WHERE id = ?').pluck().get(step.id);
      if (status !== 'scheduled') return;
      const taskId = this.deps.createTask({ content: step.task_content ?? '', resource_type: step.e_resource_type, resource_id: step.e_resource_id }, actor);
      this.deps.enrollments.startStep(step.id, { executed_at: now, task_id: taskId });
    });
  }

  private async sendEmail(step: DueStep): Promise<void> {
    const prepared = this.prepareEmail(step);
    if ('failure' in prepared) return this.block(step.id, prepared.failure);
    const attemptKey = `${step.enrollment_id}.${step.position}.${randomUUID()}`;
    const claimed = this.claim(step, attemptKey);
    if (claimed !== true) {
      if (claimed) this.block(step.id, claimed);
      return;
    }
    try {
      await this.deps.mailer.send(prepared.smtpUrl, { ...prepared.email, messageId: messageIdOf(attemptKey) });
    } catch (error) {
      if (!this.stopped) this.block(step.id, failureReasonOf(error));
      return;
    }
    if (!this.stopped) this.write(() => this.deps.enrollments.completeStep(step.id, this.ctx.clock.now()));
  }

  private block(stepId: number, reason: FailureReason): void {
    this.write(() => this.deps.enrollments.block(stepId, reason));
  }

  /**
   * Marks the email in_progress with its attempt key before it leaves, in
   * one transaction with the quota check (emails claimed today count).
   * true: claimed; a reason: refused; false: someone else changed it.
   */
  private claim(step: DueStep, attemptKey: string): true | false | FailureReason {
    const now = this.ctx.clock.now();
    const dayStart = `${isoSeconds(now).slice(0, 10)}T00:00:00Z`;
    return this.write((): true | false | FailureReason => {
      const quota = this.ctx.statements.get('SELECT email_daily_quota FROM account WHERE id = 1').pluck().get() as number;
      const sentToday = this.ctx.statements.get(`SELECT COUNT(*) FROM enrollment_steps
          WHERE action_type = 'automated_email' AND attempt_key IS NOT NULL AND executed_at >= ?`).pluck().get(dayStart) as number;
      if (sentToday >= quota) return 'quota_exceeded';
      return this.deps.enrollments.startStep(step.id, { executed_at: isoSeconds(now), attempt_key: attemptKey });
    });
  }

  /** Everything checked before anything is sent: the recipient's address, the merge tags, the SMTP settings. */
  private prepareEmail(step: DueStep): { failure: FailureReason } | { smtpUrl: string; email: Omit<OutgoingEmail, 'messageId'> } {
    const resource = this.deps.recordJson(step.e_resource_type, step.e_resource_id);
    const user = this.deps.recordJson('user', step.e_actor_id);
    const to = resource?.email;
    if (typeof to !== 'string' || !EMAIL_ADDRESS.test(to.trim())) return { failure: 'recipient_invalid' };
    if (!user || typeof user.email !== 'string') return { failure: 'unknown' };
    const properties = JSON.parse(step.action_properties) as { email_template_id: number; is_reply?: boolean };
    let rendered: Rendered;
    try {
      rendered = this.deps.templates().render(properties.email_template_id, { [step.e_resource_type]: resource, user } as MergeContext);
    } catch {
      // The template is gone.
      return { failure: 'unknown' };
    }
    if (!rendered.ok) return { failure: 'missing_merge_tags' };
    const smtpUrl = this.ctx.statements.get('SELECT smtp_url FROM account WHERE id = 1').pluck().get() as string | null;
    if (!smtpUrl) return { failure: 'sendout_disabled' };
    const previous = properties.is_reply ? this.previousEmailKey(step) : undefined;
    return {
      smtpUrl,
      email: {
        from: { name: typeof user.name === 'string' ? user.name : '', address: user.email },
        to: to.trim(),
        subject: previous ? `Re: ${rendered.subject}` : rendered.subject,
        text: rendered.body,
        ...(previous ? { inReplyTo: messageIdOf(previous) } : {}),
      },
    };
  }

  /** A reply step answers the enrollment's last email sent (its Message-ID). */
  private previousEmailKey(step: StepRow): string | undefined {
    return this.ctx.statements.get(`SELECT attempt_key FROM enrollment_steps WHERE enrollment_id = ? AND position < ?
        AND action_type = 'automated_email' AND status = 'completed' AND attempt_key IS NOT NULL ORDER BY position DESC LIMIT 1`)
      .pluck().get(step.enrollment_id, step.position) as string | undefined;
  }

  /** Emails claimed by a run that ended before settling them (the engine stopped), whose fate is unknown: blocked, never resent blindly. */
  private recoverInterruptedSends(): void {
    const interrupted = this.ctx.statements.get(`SELECT id FROM enrollment_steps WHERE action_type = 'automated_email' AND status = 'in_progress'`)
      .pluck().all() as number[];
    for (const id of interrupted) this.block(id, 'unknown');
  }
}

function messageIdOf(attemptKey: string): string {
  return `<${attemptKey}@outpost.invalid>`;
}
