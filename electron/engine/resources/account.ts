import { z } from 'zod';
import type { Actor, EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { FieldErrors, problem } from '../problems.js';
import { jsonBool, jsonObject } from '../db/sqlJson.js';
import { isCurrency } from '../../../shared/currencies.js';
import type { SyncSource } from '../sync/sources.js';
import type { ExchangeRates } from './exchangeRates.js';
import {
  ADDONS, COMMERCE_CHANGES, PLAN_LIMITS, PLANS, TOP_PLAN, type Addon, type CommerceChanges, type Plan,
} from '../../../shared/resources/account.js';

const ACCOUNT_JSON = jsonObject({
  id: 'a.id', name: 'a.name', currency: 'a.currency', phone: 'a.phone', time_format: 'a.time_format',
  timezone: 'a.timezone', plan: 'a.plan', addons: 'json(a.addons)', commerce_changes: 'a.commerce_changes',
  // The SMTP URL holds a password: it is written (PUT, CLI), never served; everyone sees whether one is set.
  smtp_configured: jsonBool('a.smtp_url IS NOT NULL'), email_daily_quota: 'a.email_daily_quota',
  created_at: 'a.created_at', updated_at: 'a.updated_at',
});

/** The account as devices receive it (sync/). */
export const ACCOUNT_SYNC: SyncSource = { type: 'account', from: 'account a', idColumn: 'a.id', json: ACCOUNT_JSON };

/**
 * A replica stores the account from the hub's JSON, which never carries the
 * SMTP URL (it holds a password): an empty URL stands for "set on the hub",
 * so the replica's `smtp_configured` answers as the hub's. A replica sends no
 * mail (its hub runs the sequences), so the URL itself is never needed there.
 */
export const ACCOUNT_PARTS = {
  write(ctx: EngineContext, json: Record<string, unknown>): void {
    ctx.statements.get('UPDATE account SET smtp_url = ? WHERE id = ?').run(json.smtp_configured ? '' : null, json.id);
  },
  remove(): void {
    // The account is never deleted.
  },
};

/** What an admin may change (PUT /v2/accounts/self, `outpost account set`); read-only fields sent back are ignored. */
const settingsSchema = z.strictObject({
  id: z.unknown(), created_at: z.unknown(), updated_at: z.unknown(), smtp_configured: z.unknown(),
  name: z.string().trim().min(1).max(255),
  currency: z.string().refine(isCurrency, 'an ISO 4217 currency code in use, such as USD'),
  phone: z.string().max(255).nullable(),
  time_format: z.enum(['12H', '24H']),
  timezone: z.string().regex(/^UTC[+-](0\d|1[0-4]):[0-5]\d$/, 'a UTC offset such as UTC+01:00'),
  plan: z.enum(PLANS),
  addons: z.array(z.enum(ADDONS)).max(ADDONS.length),
  commerce_changes: z.enum(COMMERCE_CHANGES),
  // The SMTP server sequences send through (null: sending off), and the most automated emails a day.
  smtp_url: z.string().max(2048).refine(isSmtpUrl, 'an smtp:// or smtps:// URL such as smtp://user:pass@host:587').nullable(),
  email_daily_quota: z.number().int().min(0).max(1_000_000),
}).partial();

function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}

interface AccountRow {
  plan: Plan;
  addons: string;
  commerce_changes: CommerceChanges;
}

/** The one account a hub serves (GET /v2/accounts/self), with its plan, add-ons and admin switches. */
export class Accounts {
  constructor(private readonly ctx: EngineContext, private readonly exchangeRates: ExchangeRates) {}

  /** Created with the database; a self-hosted team starts on the top plan with every add-on. */
  ensure(): void {
    const now = isoSeconds(this.ctx.clock.now());
    this.ctx.db.transaction(() => {
      const { changes } = this.ctx.db
        .prepare("INSERT OR IGNORE INTO account (id, name, plan, addons, created_at, updated_at) VALUES (1, 'Outpost', ?, ?, ?, ?)")
        .run(TOP_PLAN, JSON.stringify(ADDONS), now, now);
      // Devices sync the account like any record.
      if (changes > 0) this.ctx.changes.record('account', 1, 'created', null);
    })();
  }

  json(): string {
    return this.ctx.statements.get(`SELECT ${ACCOUNT_JSON} FROM account a WHERE a.id = 1`).pluck().get() as string;
  }

  /** Changes the account's settings (admins only; the caller checks the role). Every problem in one 422. */
  update(data: Record<string, unknown>, actor: Actor | null): void {
    const parsed = settingsSchema.safeParse(data);
    if (!parsed.success) {
      const errors = new FieldErrors('account');
      for (const issue of parsed.error.issues) {
        if (issue.code === 'unrecognized_keys') issue.keys.forEach((k) => errors.add(`/${k}`, 'unknown', `${k} is not a setting of the account.`));
        else errors.add(`/${issue.path.join('/')}`, issue.code === 'invalid_type' ? 'invalid_type' : 'incorrect_value', describe(issue));
      }
      errors.throwIfAny();
    }
    const { id: _id, created_at: _c, updated_at: _u, smtp_configured: _s, addons, ...columns } = parsed.data!;
    const values: Record<string, unknown> = { ...columns, ...(addons ? { addons: JSON.stringify([...new Set(addons)].sort()) } : {}) };
    if (Object.keys(values).length === 0) return;
    const now = isoSeconds(this.ctx.clock.now());
    const currencyChanged = values.currency !== undefined && values.currency !== this.currency();
    this.ctx.db.transaction(() => {
      // The rates said how much of the old currency each was worth: kept, they would convert into the wrong one.
      if (currencyChanged) this.exchangeRates.clearAll(actor?.userId ?? null);
      this.ctx.db.prepare(`UPDATE account SET ${Object.keys(values).map((c) => `${c} = @${c}`).join(', ')}, updated_at = @now WHERE id = 1`)
        .run({ ...values, now });
      this.ctx.changes.record('account', 1, 'updated', actor?.userId ?? null);
    })();
  }

  /** The account's currency: every converted total is in it. */
  currency(): string {
    return this.ctx.statements.get('SELECT currency FROM account WHERE id = 1').pluck().get() as string;
  }

  private settings(): AccountRow {
    return this.ctx.statements.get('SELECT plan, addons, commerce_changes FROM account WHERE id = 1').get() as AccountRow;
  }

  hasAddon(addon: Addon): boolean {
    return (JSON.parse(this.settings().addons) as string[]).includes(addon);
  }

  plan(): Plan {
    return this.settings().plan;
  }

  /**
   * Products, orders and line items need a plan with them (403 naming the
   * plan otherwise); when an admin turned changes to them off, only reading
   * is allowed (403 for every other method; the data stays).
   */
  checkCommerce(method: string): void {
    const { plan, commerce_changes: changes } = this.settings();
    if (!PLAN_LIMITS[plan].commerce) {
      const needed = PLANS.filter((p) => PLAN_LIMITS[p].commerce).join(' or ');
      throw problem('forbidden', `Products, orders and line items need the ${needed} plan; this account is on the ${plan} plan.`);
    }
    if (changes === 'disabled' && method !== 'GET' && method !== 'HEAD') {
      throw problem('forbidden', 'An administrator has turned off changes to products, orders and line items: they can be read, not changed.');
    }
  }
}

function describe(issue: z.core.$ZodIssue): string {
  const field = issue.path.join('.');
  if (issue.code === 'invalid_value') return `${field} must be one of: ${issue.values.map(String).join(', ')}.`;
  return `${field} ${issue.message === 'Invalid input' ? 'is not valid' : `must be ${issue.message}`}.`;
}
