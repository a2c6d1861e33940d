import { z } from 'zod';
import type { Actor, EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { FieldErrors, notFound, problem } from '../problems.js';
import { hashPassword, MIN_PASSWORD_LENGTH } from '../auth/passwords.js';
import { jsonBool, jsonObject } from '../db/sqlJson.js';
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

export const USER_LIST: ListDefinition = {
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
    if (name === 'helpdesk_user_ids') return { sql: '1 = 0', params: [] };
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

/** Fields of the user JSON a client may send back unchanged: ignored (they are the server's to set). */
const READ_ONLY = ['id', 'phone_number', 'invited', 'confirmed', 'roles', 'team_name', 'group', 'reports_to', 'timezone',
  'identity_type', 'helpdesk_user_id', 'created_at', 'updated_at', 'deleted_at'] as const;
const readOnly = (...more: string[]) => Object.fromEntries([...READ_ONLY, ...more].map((k) => [k, z.unknown().optional()]));

const userName = z.string().trim().min(1, "can't be blank").max(255);
const password = z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(1024);
const role = z.enum(['user', 'admin']);

/** `POST /v2/users` (admins): without a password the user is invited (a one-time link sets it). */
const addSchema = z.strictObject({ ...readOnly('status'), name: userName, email: z.email().max(255), role, password: password.optional() });
/** `PUT /v2/users/:id` (admins): the email is the person's sign-in, kept as created. */
const changeSchema = z.strictObject({
  ...readOnly('email'), name: userName.optional(), role: role.optional(), status: z.enum(['active', 'inactive']).optional(), password: password.optional(),
});

/** A user the API is about to add, checked and with the password (if any) hashed. */
export interface CheckedNewUser {
  name: string;
  email: string;
  role: UserRole;
  passwordHash: string | null;
}

/** Changes the API is about to make to a user, checked and with the password (if any) hashed. */
export interface CheckedChanges {
  name?: string;
  role?: UserRole;
  status?: 'active' | 'inactive';
  passwordHash?: string;
}

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
  setStatus(id: number, status: 'active' | 'inactive', actorId: number | null = null): void {
    const now = isoSeconds(this.ctx.clock.now());
    this.ctx.db.transaction(() => {
      this.ctx.db.prepare('UPDATE users SET status = ?, updated_at = ? WHERE id = ?').run(status, now, id);
      if (status === 'inactive') this.revokeTokens(id);
      this.ctx.changes.record('user', id, 'updated', actorId);
    })();
    this.ctx.forgetCachedTokens?.();
  }

  /** Signs the user out everywhere: their access and refresh tokens stop working. */
  revokeTokens(id: number): void {
    const now = isoSeconds(this.ctx.clock.now());
    this.ctx.db.prepare('UPDATE access_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL').run(now, id);
    this.ctx.db.prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL').run(now, id);
    this.ctx.forgetCachedTokens?.();
  }

  /** Checks a new user from the API, every problem in one 422; hashes the password (the slow part, outside any transaction). */
  async checkNew(data: Record<string, unknown>): Promise<CheckedNewUser> {
    const parsed = parseUser(addSchema, data);
    const errors = new FieldErrors('user');
    if (!parsed.ok) parsed.issues.forEach((i) => errors.add(i.pointer, i.code, i.message));
    const email = parsed.ok ? parsed.data.email : undefined;
    if (email !== undefined && this.findByEmail(email)) errors.add('/email', 'already_exists', `A user with email ${email} already exists.`);
    errors.throwIfAny();
    const { name, role: userRole, password: secret } = parsed.data!;
    return { name, email: email!, role: userRole, passwordHash: secret === undefined ? null : await hashPassword(secret) };
  }

  /** Adds a checked user: with a password, active and confirmed; without, invited (not yet confirmed). */
  insert(user: CheckedNewUser, actorId: number | null): number {
    if (this.findByEmail(user.email)) throw problem('already_exists', `A user with email ${user.email} already exists.`, '/email', 'user');
    const now = isoSeconds(this.ctx.clock.now());
    const invited = user.passwordHash === null ? 1 : 0;
    const { lastInsertRowid } = this.ctx.db
      .prepare('INSERT INTO users (name, email, role, password_hash, invited, confirmed, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(user.name, user.email, user.role, user.passwordHash, invited, 1 - invited, now, now);
    const id = Number(lastInsertRowid);
    this.ctx.changes.record('user', id, 'created', actorId);
    return id;
  }

  /** Checks changes to a user from the API, every problem in one 422; hashes a new password. */
  async checkChanges(id: number, data: Record<string, unknown>): Promise<CheckedChanges> {
    if (!this.find(id)) throw notFound('user', id);
    const parsed = parseUser(changeSchema, data);
    if (!parsed.ok) {
      const errors = new FieldErrors('user');
      parsed.issues.forEach((i) => errors.add(i.pointer, i.code, i.message));
      errors.throwIfAny();
    }
    const { name, role: userRole, status, password: secret } = parsed.data!;
    return { name, role: userRole, status, ...(secret === undefined ? {} : { passwordHash: await hashPassword(secret) }) };
  }

  /**
   * Applies checked changes, inside the write's transaction. The account
   * keeps an active administrator: demoting or deactivating the last one is
   * refused (409). A new password confirms the user and signs them out
   * everywhere, except an admin changing their own, who stays signed in.
   */
  applyChanges(id: number, changes: CheckedChanges, actor: Actor): void {
    const user = this.find(id);
    if (!user) throw notFound('user', id);
    this.keepAnAdmin(user, changes);
    const columns: Record<string, unknown> = {};
    if (changes.name !== undefined) columns.name = changes.name;
    if (changes.role !== undefined) columns.role = changes.role;
    if (changes.passwordHash !== undefined) Object.assign(columns, { password_hash: changes.passwordHash, confirmed: 1, invited: 0 });
    const statusChanges = changes.status !== undefined && changes.status !== user.status;
    if (Object.keys(columns).length > 0) {
      const now = isoSeconds(this.ctx.clock.now());
      this.ctx.db.prepare(`UPDATE users SET ${Object.keys(columns).map((c) => `${c} = @${c}`).join(', ')}, updated_at = @now WHERE id = @id`)
        .run({ ...columns, now, id });
      if (!statusChanges) this.ctx.changes.record('user', id, 'updated', actor.userId);
      if (changes.role !== undefined) this.ctx.forgetCachedTokens?.();
    }
    if (statusChanges) this.setStatus(id, changes.status!, actor.userId);
    if (changes.passwordHash !== undefined && id !== actor.userId) this.revokeTokens(id);
  }

  /** Sets the password chosen through a one-time link: the user is confirmed, and signed out of older sessions. */
  setPasswordFromLink(id: number, passwordHash: string): void {
    const now = isoSeconds(this.ctx.clock.now());
    this.ctx.db.prepare('UPDATE users SET password_hash = ?, confirmed = 1, invited = 0, updated_at = ? WHERE id = ?').run(passwordHash, now, id);
    this.revokeTokens(id);
    this.ctx.changes.record('user', id, 'updated', id);
  }

  /**
   * Refuses a change that leaves no active administrator who can sign in
   * (applyChanges for the API; the command line's `users deactivate`).
   */
  keepAnAdmin(user: UserRecord, changes: CheckedChanges): void {
    const losesAdmin = (changes.role !== undefined && changes.role !== 'admin') || changes.status === 'inactive';
    if (user.role !== 'admin' || user.status !== 'active' || !losesAdmin) return;
    const others = this.ctx.db
      .prepare("SELECT COUNT(*) FROM users WHERE role = 'admin' AND status = 'active' AND confirmed = 1 AND deleted_at IS NULL AND id != ?")
      .pluck().get(user.id) as number;
    if (others > 0) return;
    const field = changes.status === 'inactive' ? '/status' : '/role';
    const message = `${user.name} is the only active administrator: make someone else an administrator first.`;
    throw problem('conflict', message, field, 'user');
  }

  /** The id of the (undeleted) user with this email, active or not. */
  idByEmail(email: string): number | undefined {
    return this.ctx.db.prepare('SELECT id FROM users WHERE email = ? AND deleted_at IS NULL').pluck().get(email) as number | undefined;
  }

  /**
   * Whether the account has an administrator (active; an invited one who
   * has yet to choose a password counts). An account always has one: its
   * first user is one (firstAdmin.ts, `outpost users add`), and the last
   * one cannot be demoted or deactivated (keepAnAdmin).
   */
  hasAdmin(): boolean {
    return this.ctx.db.prepare("SELECT 1 FROM users WHERE role = 'admin' AND status = 'active' AND deleted_at IS NULL LIMIT 1").pluck().get() !== undefined;
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

interface Issue {
  pointer: string;
  code: 'missing' | 'unknown' | 'invalid_type' | 'incorrect_value' | 'blank';
  message: string;
}

/** Parses user fields, turning every issue into a field error of the envelope (`name is required.`, `role must be one of: user, admin.`). */
function parseUser<T extends z.ZodType>(schema: T, data: Record<string, unknown>): { ok: true; data: z.infer<T> } | { ok: false; data?: undefined; issues: Issue[] } {
  const parsed = schema.safeParse(data);
  if (parsed.success) return { ok: true, data: parsed.data };
  const issues: Issue[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      issue.keys.forEach((k) => issues.push({ pointer: `/${k}`, code: 'unknown', message: `${k} is not a field of a user.` }));
      continue;
    }
    const field = issue.path.join('.');
    const pointer = `/${issue.path.join('/')}`;
    if (data[field] === undefined) issues.push({ pointer, code: 'missing', message: `${field} is required.` });
    else if (issue.code === 'invalid_type') issues.push({ pointer, code: 'invalid_type', message: `${field} must be ${issue.expected === 'string' ? 'text' : issue.expected}.` });
    else if (issue.code === 'invalid_value') issues.push({ pointer, code: 'incorrect_value', message: `${field} must be one of: ${issue.values.map(String).join(', ')}.` });
    else if (issue.code === 'invalid_format') issues.push({ pointer, code: 'incorrect_value', message: `${field} must be an email address such as name@example.com.` });
    else if (issue.code === 'too_big') issues.push({ pointer, code: 'incorrect_value', message: `${field} must be at most ${String(issue.maximum)} characters.` });
    else issues.push({ pointer, code: field === 'name' ? 'blank' : 'incorrect_value', message: `${field} ${issue.message}.` });
  }
  return { ok: false, issues };
}
