import { randomUUID } from 'node:crypto';
import type { Actor, EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import type { Accounts } from '../resources/account.js';
import { SEQUENCES_ADDON, type Enrollments, type StepRow } from '../resources/enrollments.js';
import type { MergeContext, Rendered } from '../resources/emailTemplates.js';
import type { FailureReason } from '../../../shared/resources/sequence.js';
import { failureReasonOf, type Mailer, type OutgoingEmail } from './mailer.js';

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
 */
export class Scheduler {
  private queue: Promise<void> = Promise.resolve();
  private busy = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly ctx: EngineContext, private readonly deps: SchedulerDeps) {
    this.recoverInterruptedSends();
  }

  /** Ticks every `intervalMs` (the hub does; tests call tick() themselves). */
  start(intervalMs: number): void {
    if (this.timer || intervalMs <= 0) return;
    this.timer = setInterval(() => {
      if (!this.busy) void this.tick();
    }, intervalMs);
    this.timer.unref();
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
    if (this.stopped) return;
    this.busy = true;
    try {
      if (!this.deps.accounts.hasAddon(SEQUENCES_ADDON)) this.finishAll('subscription_cancelled');
      this.settleTasks();
      for (let round = 0; round < MAX_ROUNDS && !this.stopped; round++) {
        const due = this.dueSteps();
        if (due.length === 0) break;
        for (const step of due) {
          if (this.stopped) return;
          await this.execute(step);
        }
      }
    } finally {
      this.busy = false;
    }
  }

  private finishAll(reason: 'subscription_cancelled'): void {
    const open = this.ctx.statements.get("SELECT id FROM sequence_enrollments WHERE state != 'finished'").pluck().all() as number[];
    for (const id of open) this.deps.enrollments.finish(id, reason, null);
  }

  /** Task steps wait for their task: completed → the step is done (the next one counts from then); deleted → the enrollment ends. */
  private settleTasks(): void {
    const waiting = this.ctx.statements.get(`SELECT s.id, s.enrollment_id, t.id AS task, t.completed, t.completed_at
        FROM enrollment_steps s JOIN sequence_enrollments e ON e.id = s.enrollment_id LEFT JOIN tasks t ON t.id = s.task_id
        WHERE s.action_type = 'task' AND s.status = 'in_progress' AND e.state != 'finished'`)
      .all() as { id: number; enrollment_id: number; task: number | null; completed: number | null; completed_at: string | null }[];
    for (const step of waiting) {
      if (step.task === null) this.deps.enrollments.finish(step.enrollment_id, 'task_deleted', null);
      else if (step.completed === 1) this.deps.enrollments.completeStep(step.id, new Date(step.completed_at ?? this.ctx.clock.now()));
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
    this.ctx.db.transaction(() => {
      const taskId = this.deps.createTask({ content: step.task_content ?? '', resource_type: step.e_resource_type, resource_id: step.e_resource_id }, actor);
      this.deps.enrollments.startStep(step.id, { executed_at: now, task_id: taskId });
    })();
  }

  private async sendEmail(step: DueStep): Promise<void> {
    const prepared = this.prepareEmail(step);
    if ('failure' in prepared) return this.deps.enrollments.block(step.id, prepared.failure);
    const attemptKey = `${step.enrollment_id}.${step.position}.${randomUUID()}`;
    const claimed = this.claim(step, attemptKey);
    if (claimed !== true) {
      if (claimed) this.deps.enrollments.block(step.id, claimed);
      return;
    }
    try {
      await this.deps.mailer.send(prepared.smtpUrl, { ...prepared.email, messageId: messageIdOf(attemptKey) });
    } catch (error) {
      if (!this.stopped) this.deps.enrollments.block(step.id, failureReasonOf(error));
      return;
    }
    if (!this.stopped) this.deps.enrollments.completeStep(step.id, this.ctx.clock.now());
  }

  /**
   * Marks the email in_progress with its attempt key before it leaves, in
   * one transaction with the quota check (emails claimed today count).
   * true: claimed; a reason: refused; false: someone else changed it.
   */
  private claim(step: DueStep, attemptKey: string): true | false | FailureReason {
    const now = this.ctx.clock.now();
    const dayStart = `${isoSeconds(now).slice(0, 10)}T00:00:00Z`;
    return this.ctx.db.transaction((): true | false | FailureReason => {
      const quota = this.ctx.statements.get('SELECT email_daily_quota FROM account WHERE id = 1').pluck().get() as number;
      const sentToday = this.ctx.statements.get(`SELECT COUNT(*) FROM enrollment_steps
          WHERE action_type = 'automated_email' AND attempt_key IS NOT NULL AND executed_at >= ?`).pluck().get(dayStart) as number;
      if (sentToday >= quota) return 'quota_exceeded';
      return this.deps.enrollments.startStep(step.id, { executed_at: isoSeconds(now), attempt_key: attemptKey });
    })();
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

  /** Emails claimed before the engine last stopped, whose fate is unknown: blocked, never resent blindly. */
  private recoverInterruptedSends(): void {
    const interrupted = this.ctx.statements.get(`SELECT id FROM enrollment_steps WHERE action_type = 'automated_email' AND status = 'in_progress'`)
      .pluck().all() as number[];
    for (const id of interrupted) this.deps.enrollments.block(id, 'unknown');
  }
}

function messageIdOf(attemptKey: string): string {
  return `<${attemptKey}@outpost.invalid>`;
}
