import { newRecordId, type EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { FieldErrors, problem } from '../problems.js';
import { jsonObject } from '../db/sqlJson.js';
import { quoted } from './decimal.js';
import type { SyncSource } from '../sync/sources.js';
import { isCurrency } from '../../../shared/currencies.js';
import { normalizeRate, type RateTable } from '../../../shared/money.js';

const RATE_JSON = jsonObject({
  id: 'x.id', currency: 'x.currency', rate: 'x.rate', set_at: 'x.set_at', set_by_id: 'x.set_by_id',
  created_at: 'x.created_at', updated_at: 'x.updated_at',
});

/** Rates as devices receive them: every user reads them, so a replica converts totals offline. */
export const EXCHANGE_RATE_SYNC: SyncSource = { type: 'exchange_rate', from: 'exchange_rates x', idColumn: 'x.id', json: RATE_JSON };

/** What a PUT may carry besides `rate`: the fields of the answer sent back, ignored. */
const READ_ONLY = new Set(['id', 'currency', 'set_at', 'set_by_id', 'created_at', 'updated_at']);

/**
 * The account's exchange rates: for each currency an admin gave
 * one, how many units of the account's currency one unit of it is worth.
 * Totals over several currencies are converted with them (shared/money.ts);
 * a currency without a rate is shown apart, never counted at 1. The rates are
 * in the account's currency, so changing that currency clears them
 * (Accounts.update calls clearAll).
 */
export class ExchangeRates {
  constructor(private readonly ctx: EngineContext) {}

  /** Every rate, by currency code. */
  listJson(): string[] {
    return this.ctx.statements.get(`SELECT ${RATE_JSON} FROM exchange_rates x ORDER BY x.currency`).pluck().all() as string[];
  }

  json(currency: string): string {
    const json = this.ctx.statements.get(`SELECT ${RATE_JSON} FROM exchange_rates x WHERE x.currency = ?`).pluck().get(currency) as string | undefined;
    if (json === undefined) throw problem('not_found', `The account has no exchange rate for ${quoted(currency)}.`, '/currency', 'exchange_rate');
    return json;
  }

  /** Currency → rate, for converting (reports). */
  table(): RateTable {
    const rows = this.ctx.statements.get('SELECT currency, rate FROM exchange_rates').all() as { currency: string; rate: string }[];
    return new Map(rows.map((r) => [r.currency, r.rate]));
  }

  /** Sets (creates or replaces) the rate of a currency; `set_at` is now. Admins only: the caller checks. */
  set(currencyInput: string, data: Record<string, unknown>, actorId: number): string {
    const currency = this.checkedCurrency(currencyInput);
    const rate = checkedRate(data);
    const now = isoSeconds(this.ctx.clock.now());
    this.ctx.db.transaction(() => {
      const id = this.ctx.statements.get('SELECT id FROM exchange_rates WHERE currency = ?').pluck().get(currency) as number | undefined;
      if (id === undefined) {
        // Never a deleted rate's id: devices may still hold it.
        const newId = newRecordId(this.ctx, 'exchange_rates', 'exchange_rate');
        this.ctx.db.prepare(`INSERT INTO exchange_rates (id, currency, rate, set_at, set_by_id, created_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?)`).run(newId, currency, rate, now, actorId, now, now);
        this.ctx.changes.record('exchange_rate', newId, 'created', actorId);
      } else {
        this.ctx.db.prepare('UPDATE exchange_rates SET rate = ?, set_at = ?, set_by_id = ?, updated_at = ? WHERE id = ?')
          .run(rate, now, actorId, now, id);
        this.ctx.changes.record('exchange_rate', id, 'updated', actorId);
      }
    })();
    return currency;
  }

  /** Removes a currency's rate (404 when it has none); its amounts then show apart from converted totals. */
  delete(currencyInput: string, actorId: number): void {
    const currency = currencyInput.toUpperCase();
    const id = this.ctx.statements.get('SELECT id FROM exchange_rates WHERE currency = ?').pluck().get(currency) as number | undefined;
    if (id === undefined) throw problem('not_found', `The account has no exchange rate for ${quoted(currency)}.`, '/currency', 'exchange_rate');
    this.ctx.db.transaction(() => {
      this.ctx.db.prepare('DELETE FROM exchange_rates WHERE id = ?').run(id);
      this.ctx.changes.record('exchange_rate', id, 'deleted', actorId);
    })();
  }

  /** Every rate removed (in the caller's transaction): the account's currency changed, and they were in the old one. */
  clearAll(actorId: number | null): void {
    const ids = this.ctx.statements.get('SELECT id FROM exchange_rates').pluck().all() as number[];
    for (const id of ids) this.ctx.changes.record('exchange_rate', id, 'deleted', actorId);
    this.ctx.db.prepare('DELETE FROM exchange_rates').run();
  }

  private checkedCurrency(input: string): string {
    const currency = input.toUpperCase();
    if (!isCurrency(currency)) {
      throw problem('incorrect_value', `${quoted(input)} is not an ISO 4217 currency code in use (e.g. EUR).`, '/currency', 'exchange_rate');
    }
    const own = this.ctx.statements.get('SELECT currency FROM account WHERE id = 1').pluck().get() as string;
    if (currency === own) {
      throw problem('incorrect_value', `${currency} is the account's own currency: its rate is always 1.`, '/currency', 'exchange_rate');
    }
    return currency;
  }
}

/** `data.rate`: a positive decimal (string or number), at most 10 decimals; other fields of the answer are ignored. */
function checkedRate(data: Record<string, unknown>): string {
  const errors = new FieldErrors('exchange_rate');
  for (const key of Object.keys(data)) {
    if (key !== 'rate' && !READ_ONLY.has(key)) errors.add(`/${key}`, 'unknown', `${key} is not a field of an exchange rate.`);
  }
  const rate = normalizeRate(data.rate);
  if (data.rate === undefined || data.rate === null) errors.add('/rate', 'missing', 'rate is required: how many units of the account currency one unit of this currency is worth.');
  else if (rate === null) errors.add('/rate', 'incorrect_value', 'rate must be a positive decimal with at most 12 digits before the point and 10 after (e.g. "1.0870").');
  errors.throwIfAny();
  return rate!;
}
