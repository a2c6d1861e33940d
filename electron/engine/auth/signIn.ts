import type { EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { verifyPassword } from './passwords.js';
import type { Users } from '../resources/users.js';

/** Failed password checks tolerated per email within the window before it is locked. */
export const MAX_FAILED_SIGN_INS = 5;
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

/** `unavailable`: the password could not be checked at all (a replica whose hub is out of reach), which is not a wrong password. */
export type SignInResult = { ok: true; userId: number } | { ok: false; message: string; retryAfter?: number; unavailable?: boolean };

const WRONG = 'The email or password is incorrect.';

/**
 * Password sign-in for the password grant and the consent page, with
 * brute-force protection: after 5 failures for an email within 15 minutes,
 * that email is locked until 15 minutes after the oldest of them, even for
 * the right password. Unknown emails are counted alike, so a lock says
 * nothing about whether an account exists; scrypt makes each try cost
 * about 50 ms besides.
 */
export class SignIn {
  /** On a replica, the hub checks passwords (a replica keeps none): set by whoever runs the replica. */
  delegate: ((email: string, password: string) => Promise<SignInResult>) | null = null;

  constructor(private readonly ctx: EngineContext, private readonly users: Users) {}

  async check(email: string, password: string): Promise<SignInResult> {
    const locked = this.lockedFor(email);
    if (locked > 0) return { ok: false, message: lockMessage(locked), retryAfter: locked };
    if (this.delegate) return this.delegate(email, password);
    const user = this.users.findByEmail(email);
    const valid = await verifyPassword(password, user?.password_hash ?? null);
    if (!user || !valid || user.status !== 'active') {
      const now = this.ctx.clock.now();
      this.ctx.db.prepare('DELETE FROM sign_in_failures WHERE failed_at <= ?').run(isoSeconds(new Date(now.getTime() - SIGN_IN_WINDOW_SECONDS * 1000)));
      this.ctx.db.prepare('INSERT INTO sign_in_failures (email, failed_at) VALUES (?, ?)').run(email, isoSeconds(now));
      const nowLocked = this.lockedFor(email);
      return nowLocked > 0 ? { ok: false, message: lockMessage(nowLocked), retryAfter: nowLocked } : { ok: false, message: WRONG };
    }
    this.ctx.db.prepare('DELETE FROM sign_in_failures WHERE email = ?').run(email);
    return { ok: true, userId: user.id };
  }

  /** Seconds until this email may try again; 0 when it is not locked. */
  private lockedFor(email: string): number {
    const now = this.ctx.clock.now().getTime();
    const since = isoSeconds(new Date(now - SIGN_IN_WINDOW_SECONDS * 1000));
    const recent = this.ctx.db
      .prepare('SELECT failed_at FROM sign_in_failures WHERE email = ? AND failed_at > ? ORDER BY failed_at DESC LIMIT ?')
      .pluck().all(email, since, MAX_FAILED_SIGN_INS) as string[];
    if (recent.length < MAX_FAILED_SIGN_INS) return 0;
    const oldest = Date.parse(recent[recent.length - 1]);
    return Math.max(1, Math.ceil((oldest + SIGN_IN_WINDOW_SECONDS * 1000 - now) / 1000));
  }
}

function lockMessage(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return `Too many failed sign-ins for this email: try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
