import { sha256Hex } from '../platform/crypto.js';
import { fromBase64, utf8Text } from '../bytes.js';
import type { FastifyRequest } from 'fastify';
import type { Engine } from '../engine.js';
import type { Actor } from '../context.js';
import type { UserRecord } from '../resources/users.js';
import { SCOPES, type Scope } from '../../../shared/oauth.js';
import { SupportProblem, unauthorized } from '../customObjects/problems.js';

/** How long a verified Basic password is remembered (engine clock), and how many are kept at most. */
export const REMEMBER_SECONDS = 60;
const REMEMBER_MAX = 1000;

/** A signed-in user (Basic) may do whatever their role allows: every scope. */
const ALL_SCOPES: ReadonlySet<Scope> = new Set(SCOPES);

interface Remembered {
  userId: number;
  /** The hash the password was verified against: a password change makes it differ at once. */
  passwordHash: string;
  until: number;
}

/**
 * Who calls /api/v2: HTTP Basic with a user's email and password (as the
 * spec's reference calls this interface), or a /v2 Bearer token (GET needs
 * its `read` scope, other methods `write`).
 *
 * Passwords are checked by SignIn, so the brute-force lock of the password
 * grant applies here too (a locked email is answered 429 with Retry-After).
 * scrypt costs ~50 ms a check, too much for a script calling in a loop, so a
 * success is remembered for a minute under the SHA-256 of the credentials
 * (never the password itself). A remembered success is re-checked against
 * the user's row on every use, so deactivating a user or changing their
 * password ends it at once, and a role change applies at once.
 */
export class SupportAuthenticator {
  private readonly remembered = new Map<string, Remembered>();

  constructor(private readonly engine: Engine) {}

  async authenticate(request: FastifyRequest): Promise<Actor> {
    const header = request.headers.authorization ?? '';
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (bearer) return this.bearer(bearer[1], request.method);
    const basic = /^Basic\s+(\S+)\s*$/i.exec(header);
    if (basic) return this.basic(utf8Text(fromBase64(basic[1])), request.ip);
    throw unauthorized();
  }

  private bearer(token: string, method: string): Actor {
    const actor = this.engine.tokens.authenticate(token);
    if (!actor) throw unauthorized();
    const needed: Scope = method === 'GET' || method === 'HEAD' ? 'read' : 'write';
    if (!actor.scopes.has(needed)) {
      const description = `This operation needs a token with the '${needed}' scope; this token has: ${[...actor.scopes].join(' ')}.`;
      throw new SupportProblem(403, { error: 'Forbidden', description }, { 'WWW-Authenticate': `Bearer realm="Outpost", error="insufficient_scope", scope="${needed}"` });
    }
    return actor;
  }

  /** `email:password` (the password may itself hold colons), sent from `source` (the caller's address, for the sign-in lockout). */
  private async basic(credentials: string, source: string): Promise<Actor> {
    const colon = credentials.indexOf(':');
    if (colon <= 0) throw unauthorized();
    const key = sha256Hex(credentials);
    const known = this.recall(key);
    if (known) return actorOf(known);
    const result = await this.engine.signIn.check(credentials.slice(0, colon), credentials.slice(colon + 1), source);
    if (!result.ok) {
      if (result.retryAfter) throw new SupportProblem(429, { error: 'TooManyRequests', description: result.message }, { 'Retry-After': String(result.retryAfter) });
      if (result.unavailable) throw new SupportProblem(503, { error: 'HubUnreachable', description: result.message });
      throw unauthorized();
    }
    const user = this.engine.users.find(result.userId);
    if (!user || user.status !== 'active') throw unauthorized();
    this.remember(key, user);
    return actorOf(user);
  }

  /** The user of a remembered success, if it still holds; a stale entry is dropped and the password checked again. */
  private recall(key: string): UserRecord | null {
    const entry = this.remembered.get(key);
    if (!entry) return null;
    const user = this.engine.users.find(entry.userId);
    const valid = entry.until > this.engine.clock.now().getTime() && user?.status === 'active' && user.password_hash === entry.passwordHash;
    if (valid) return user;
    this.remembered.delete(key);
    return null;
  }

  private remember(key: string, user: UserRecord): void {
    // On a replica the hub checks passwords and none is stored here: nothing to compare with later, so nothing is remembered.
    if (!user.password_hash) return;
    if (this.remembered.size >= REMEMBER_MAX) this.remembered.delete(this.remembered.keys().next().value as string);
    const until = this.engine.clock.now().getTime() + REMEMBER_SECONDS * 1000;
    this.remembered.set(key, { userId: user.id, passwordHash: user.password_hash, until });
  }
}

function actorOf(user: UserRecord): Actor {
  return { userId: user.id, role: user.role, scopes: ALL_SCOPES };
}

const authenticators = new WeakMap<Engine, SupportAuthenticator>();

/** One authenticator (and so one memory of successes) per engine, shared by the /api/v2 scope and the app's not-found handler. */
export function supportAuthenticator(engine: Engine): SupportAuthenticator {
  let authenticator = authenticators.get(engine);
  if (!authenticator) authenticators.set(engine, (authenticator = new SupportAuthenticator(engine)));
  return authenticator;
}
