import type { EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { jsonObject } from './sqlJson.js';
import type { SyncSource } from '../sync/sources.js';

const ACCOUNT_JSON = jsonObject({
  id: 'a.id', name: 'a.name', currency: 'a.currency', phone: 'a.phone', time_format: 'a.time_format',
  timezone: 'a.timezone', plan: 'a.plan', created_at: 'a.created_at', updated_at: 'a.updated_at',
});

/** The account as devices receive it (sync/). */
export const ACCOUNT_SYNC: SyncSource = { type: 'account', from: 'account a', idColumn: 'a.id', json: ACCOUNT_JSON };

/** The one account a hub serves (GET /v2/accounts/self). */
export class Accounts {
  constructor(private readonly ctx: EngineContext) {}

  /** Created with the database; a self-hosted team starts on the top plan. */
  ensure(): void {
    const now = isoSeconds(this.ctx.clock.now());
    this.ctx.db.transaction(() => {
      const { changes } = this.ctx.db
        .prepare("INSERT OR IGNORE INTO account (id, name, created_at, updated_at) VALUES (1, 'Outpost', ?, ?)")
        .run(now, now);
      // Devices sync the account like any record.
      if (changes > 0) this.ctx.changes.record('account', 1, 'created', null);
    })();
  }

  json(): string {
    return this.ctx.db.prepare(`SELECT ${ACCOUNT_JSON} FROM account a WHERE a.id = 1`).pluck().get() as string;
  }
}
