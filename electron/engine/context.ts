import type { Db } from './db/database.js';
import type { StatementCache } from './db/statements.js';
import type { Clock } from './clock.js';
import type { ChangeLog } from './sync/changeLog.js';
import type { Dependents } from './resources/dependents.js';
import type { Scope } from '../../shared/oauth.js';
import type { UserRole } from '../../shared/resources/user.js';

/** What every engine service works with: one connection, one clock, one change log. */
export interface EngineContext {
  db: Db;
  clock: Clock;
  statements: StatementCache;
  changes: ChangeLog;
  dependents: Dependents;
}

/** The authenticated caller of an operation. */
export interface Actor {
  userId: number;
  role: UserRole;
  scopes: ReadonlySet<Scope>;
}
