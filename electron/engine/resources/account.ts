import type { EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { jsonObject } from './sqlJson.js';

const ACCOUNT_JSON = jsonObject({
  id: 'a.id', name: 'a.name', currency: 'a.currency', phone: 'a.phone', time_format: 'a.time_format',
  timezone: 'a.timezone', plan: 'a.plan', created_at: 'a.created_at', updated_at: 'a.updated_at',
});

/** The one account a hub serves (GET /v2/accounts/self). */
export class Accounts {
  constructor(private readonly ctx: EngineContext) {}

  /** Created with the database; a self-hosted team starts on the top plan. */
  ensure(): void {
    const now = isoSeconds(this.ctx.clock.now());
    this.ctx.db
      .prepare("INSERT OR IGNORE INTO account (id, name, created_at, updated_at) VALUES (1, 'Outpost', ?, ?)")
      .run(now, now);
  }

  json(): string {
    return this.ctx.db.prepare(`SELECT ${ACCOUNT_JSON} FROM account a WHERE a.id = 1`).pluck().get() as string;
  }
}
