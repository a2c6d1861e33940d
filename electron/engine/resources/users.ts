import { z } from 'zod';
import type { EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { notFound, problem, type FieldErrors } from '../http/problem.js';
import { hashPassword, MIN_PASSWORD_LENGTH } from '../auth/passwords.js';
import { jsonBool, jsonObject } from './sqlJson.js';
import { runList, type ListDefinition, type ListPage } from './listing.js';
import { idListParam, type RawQuery } from './params.js';
import type { UserRole } from '../../../shared/resources/user.js';
import type { SyncSource } from '../sync/sources.js';

/** Role-based access control roles behind `roles` / `role_id`: one per user role. */
const RBAC_ROLES = { admin: { id: 1, name: 'Admin' }, user: { id: 2, name: 'Agent' } } as const;

const USER_JSON = jsonObject({
  id: 'u.id',
  name: 'u.name',
  email: 'u.email',
  phone_number: 'u.phone_number',
  status: 'u.status',
  invited: jsonBool('u.invited'),
  confirmed: jsonBool('u.confirmed'),
  role: 'u.role',
  roles: `json_array(CASE u.role WHEN 'admin' THEN json('${JSON.stringify(RBAC_ROLES.admin)}') ELSE json('${JSON.stringify(RBAC_ROLES.user)}') END)`,
  team_name: 'u.team_name',
  group: 'NULL',
  reports_to: 'u.reports_to',
  timezone: 'u.timezone',
  identity_type: 'u.identity_type',
  created_at: 'u.created_at',
  updated_at: 'u.updated_at',
  deleted_at: 'u.deleted_at',
});

/** Users as devices receive them (sync/): the whole team, so owners and creators can be shown offline. */
export const USER_SYNC: SyncSource = { type: 'user', from: 'users u', idColumn: 'u.id', json: USER_JSON };

const USER_LIST: ListDefinition = {
  resource: 'user',
  from: 'users u',
  json: USER_JSON,
  idColumn: 'u.id',
  filters: {
    name: { kind: 'string', column: 'u.name' },
    email: { kind: 'string', column: 'u.email' },
    role: { kind: 'enum', column: 'u.role', values: ['user', 'admin'] },
    status: { kind: 'enum', column: 'u.status', values: ['active', 'inactive'] },
    confirmed: { kind: 'bool', column: 'u.confirmed' },
    identity_type: { kind: 'enum', column: 'u.identity_type', values: ['person', 'integration'] },
  },
  sorts: { id: 'u.id', name: 'u.name', created_at: 'u.created_at', updated_at: 'u.updated_at' },
  defaultOrder: 'u.id ASC',
  extraFilter: (name, value) => {
    if (name === 'role_id') {
      const ids = idListParam(name, value);
      const roles = Object.entries(RBAC_ROLES).filter(([, r]) => ids.includes(r.id)).map(([role]) => role);
      return { sql: `u.role IN (${roles.map(() => '?').join(',') || 'NULL'})`, params: roles };
    }
    // No account is linked to a helpdesk, so no user has a helpdesk id.
    if (name === 'helpdesk_user_ids') return { sql: '0', params: [] };
    return undefined;
  },
};

export interface NewUser {
  email: string;
  name: string;
  role: UserRole;
  password: string;
}

const newUserSchema = z.object({
  email: z.email(),
  name: z.string().trim().min(1).max(255),
  role: z.enum(['user', 'admin']),
  password: z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`),
});

export interface UserRecord {
  id: number;
  email: string;
  name: string;
  role: UserRole;
  status: string;
  password_hash: string | null;
}

export class Users {
  private readonly byIdJson;
  private readonly byEmail;
  private readonly byId;
  private readonly exists;

  constructor(private readonly ctx: EngineContext) {
    this.byIdJson = ctx.db.prepare(`SELECT ${USER_JSON} FROM users u WHERE u.id = ?`).pluck();
    this.byEmail = ctx.db.prepare('SELECT id, email, name, role, status, password_hash FROM users WHERE email = ? AND deleted_at IS NULL');
    this.byId = ctx.db.prepare('SELECT id, email, name, role, status, password_hash FROM users WHERE id = ? AND deleted_at IS NULL');
    this.exists = ctx.db.prepare("SELECT 1 FROM users WHERE id = ? AND status = 'active' AND deleted_at IS NULL").pluck();
  }

  async create(input: NewUser): Promise<number> {
    const parsed = newUserSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = String(issue.path[0] ?? '');
      throw problem('incorrect_value', `${field} ${issue.message}`, `/${field}`, 'user');
    }
    if (this.findByEmail(parsed.data.email)) {
      throw problem('already_exists', `A user with email ${parsed.data.email} already exists.`, '/email', 'user');
    }
    const hash = await hashPassword(parsed.data.password);
    const now = isoSeconds(this.ctx.clock.now());
    return this.ctx.db.transaction(() => {
      const { lastInsertRowid } = this.ctx.db
        .prepare('INSERT INTO users (name, email, role, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(parsed.data.name, parsed.data.email, parsed.data.role, hash, now, now);
      const id = Number(lastInsertRowid);
      this.ctx.changes.record('user', id, 'created', null);
      return id;
    })();
  }

  /**
   * Activates or deactivates a user. Deactivating revokes every token the
   * user has (so reactivating does not bring old ones back) and refuses their
   * sign-ins from then on.
   */
  setStatus(id: number, status: 'active' | 'inactive'): void {
    const now = isoSeconds(this.ctx.clock.now());
    this.ctx.db.transaction(() => {
      this.ctx.db.prepare('UPDATE users SET status = ?, updated_at = ? WHERE id = ?').run(status, now, id);
      if (status === 'inactive') {
        this.ctx.db.prepare('UPDATE access_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL').run(now, id);
        this.ctx.db.prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL').run(now, id);
      }
      this.ctx.changes.record('user', id, 'updated', null);
    })();
  }

  /** The id of the (undeleted) user with this email, active or not. */
  idByEmail(email: string): number | undefined {
    return this.ctx.db.prepare('SELECT id FROM users WHERE email = ? AND deleted_at IS NULL').pluck().get(email) as number | undefined;
  }

  count(): number {
    return this.ctx.db.prepare('SELECT COUNT(*) FROM users').pluck().get() as number;
  }

  findByEmail(email: string): UserRecord | undefined {
    return this.byEmail.get(email) as UserRecord | undefined;
  }

  find(id: number): UserRecord | undefined {
    return this.byId.get(id) as UserRecord | undefined;
  }

  firstAdmin(): UserRecord | undefined {
    return this.ctx.db.prepare("SELECT id, email, name, role, status, password_hash FROM users WHERE role = 'admin' AND deleted_at IS NULL ORDER BY id LIMIT 1").get() as UserRecord | undefined;
  }

  isActiveUser(id: number): boolean {
    return this.exists.get(id) !== undefined;
  }

  /** Checks a field that must name an active user (`owner_id`, `user_id`); undefined means not sent. */
  checkReference(field: string, value: unknown, errors: FieldErrors): void {
    if (value === undefined || errors.has(`/${field}`)) return;
    if (value === null) errors.add(`/${field}`, 'blank', `${field} can't be blank.`);
    else if (!this.isActiveUser(value as number)) errors.add(`/${field}`, 'incorrect_value', `${field} ${String(value)} is not an active user.`);
  }

  json(id: number): string {
    const json = this.byIdJson.get(id) as string | undefined;
    if (json === undefined) throw notFound('user', id);
    return json;
  }

  list(query: RawQuery): ListPage {
    return runList(USER_LIST, query, this.ctx.statements);
  }
}
