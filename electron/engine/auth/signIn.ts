import { sleep } from '../platform/timers.js';
import type { EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { verifyPassword } from './passwords.js';

/** Failed password checks tolerated per email and source within the window before that pair is locked. */
export const MAX_FAILED_SIGN_INS = 5;
/** Failed password checks tolerated per source, across emails, within the window before that source is locked. */
export const MAX_FAILED_SIGN_INS_PER_SOURCE = 20;
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
/** The wait of the first try past an email's tolerated failures; each further failure doubles it, up to the cap. */
export const SLOW_DOWN_FIRST_MS = 1000;
export const SLOW_DOWN_MAX_MS = 5000;

/** `unavailable`: the password could not be checked at all (a replica whose hub is out of reach), which is not a wrong password. */
export type SignInResult = { ok: true; userId: number } | { ok: false; message: string; retryAfter?: number; unavailable?: boolean };

const WRONG = 'The email or password is incorrect.';

/** What a password check needs of the account an email names: the users resource finds it, and is passed in as `findAccount`. */
export interface SignInAccount {
  id: number;
  status: string;
  password_hash: string | null;
}

/**
 * How long a try for an email waits before its answer, after `failures`
 * failures of that email (from any source) within the window: none below
 * MAX_FAILED_SIGN_INS, then 1 s, 2 s, 4 s, and 5 s from there on.
 */
export function slowDownMs(failures: number): number {
  if (failures < MAX_FAILED_SIGN_INS) return 0;
  return Math.min(SLOW_DOWN_FIRST_MS * 2 ** (failures - MAX_FAILED_SIGN_INS), SLOW_DOWN_MAX_MS);
}

/**
 * Password sign-in for the password grant, the consent page and Basic auth,
 * with brute-force protection by email and source (the caller's network
 * address), after the OAuth security guidance: lock what an attacker
 * controls, only slow down what a victim shares with them.
 *
 * 1. Email and source: after 5 failures of that pair within 15 minutes, the
 *    pair is locked until 15 minutes after the oldest of them, even for the
 *    right password (Retry-After).
 * 2. Source alone: after 20 failures from a source within 15 minutes, across
 *    emails (credential stuffing, password spraying), that source is locked
 *    for every email the same way.
 * 3. Email alone: never locked, since anyone may know an email and fail from
 *    any number of addresses. After 5 failures of an email from anywhere
 *    within 15 minutes, each further try for it waits before its answer
 *    (slowDownMs: 1 s, doubling, capped at 5 s), from every source, a clean
 *    one included: an attacker with many addresses gives each a clean record,
 *    so sparing clean sources would spare the attack. The owner, whose own
 *    address is not locked, still signs in, a few seconds later at worst.
 *    Each try waits on its own and is not queued behind the others: a queue
 *    would let a flood of guesses hold the owner's try back indefinitely,
 *    which is the lockout again.
 *
 * A success clears the failures of its pair only. Locked tries are not
 * counted. Unknown emails are counted alike, so a lock or a wait says nothing
 * about whether an account exists; scrypt makes each try cost about 50 ms
 * besides.
 */
export class SignIn {
  /** On a replica, the hub checks passwords (a replica keeps none), seeing the replica's address as the source: set by whoever runs the replica. */
  delegate: ((email: string, password: string) => Promise<SignInResult>) | null = null;

  constructor(private readonly ctx: EngineContext, private readonly findAccount: (email: string) => SignInAccount | undefined) {}

  async check(email: string, password: string, source: string): Promise<SignInResult> {
    if (this.delegate) return this.delegate(email, password);
    const locked = this.lockOf(email, source);
    if (locked) return locked;
    const wait = slowDownMs(this.failuresOf(email));
    if (wait > 0) await sleep(wait);
    const user = this.findAccount(email);
    const valid = await verifyPassword(password, user?.password_hash ?? null);
    if (!user || !valid || user.status !== 'active') return this.fail(email, source);
    this.ctx.db.prepare('DELETE FROM sign_in_failures WHERE email = ? AND source = ?').run(email, source);
    return { ok: true, userId: user.id };
  }

  /** Records a failure (dropping expired ones), and answers the lock it completes if it does. */
  private fail(email: string, source: string): SignInResult {
    const now = this.ctx.clock.now();
    this.ctx.db.prepare('DELETE FROM sign_in_failures WHERE failed_at <= ?').run(this.windowStart());
    this.ctx.db.prepare('INSERT INTO sign_in_failures (email, source, failed_at) VALUES (?, ?, ?)').run(email, source, isoSeconds(now));
    return this.lockOf(email, source) ?? { ok: false, message: WRONG };
  }

  /** The refusal for this email from this source while the pair or the source is locked (rules 1 and 2); null when neither is. */
  private lockOf(email: string, source: string): SignInResult | null {
    const pair = this.secondsLocked('email = ? AND source = ?', [email, source], MAX_FAILED_SIGN_INS);
    if (pair > 0) return refusal(pair, 'for this email');
    const address = this.secondsLocked('source = ?', [source], MAX_FAILED_SIGN_INS_PER_SOURCE);
    if (address > 0) return refusal(address, 'from this address');
    return null;
  }

  /** Seconds until the failures matching `where` within the window fall below `max`; 0 when they already are. */
  private secondsLocked(where: string, params: string[], max: number): number {
    const recent = this.ctx.db
      .prepare(`SELECT failed_at FROM sign_in_failures WHERE ${where} AND failed_at > ? ORDER BY failed_at DESC LIMIT ?`)
      .pluck().all(...params, this.windowStart(), max) as string[];
    if (recent.length < max) return 0;
    const oldest = Date.parse(recent[recent.length - 1]);
    return Math.max(1, Math.ceil((oldest + SIGN_IN_WINDOW_SECONDS * 1000 - this.ctx.clock.now().getTime()) / 1000));
  }

  /** This email's failures within the window, from every source (rule 3). */
  private failuresOf(email: string): number {
    return Number(this.ctx.db.prepare('SELECT count(*) FROM sign_in_failures WHERE email = ? AND failed_at > ?').pluck().get(email, this.windowStart()));
  }

  private windowStart(): string {
    return isoSeconds(new Date(this.ctx.clock.now().getTime() - SIGN_IN_WINDOW_SECONDS * 1000));
  }
}

function refusal(seconds: number, what: string): SignInResult {
  const minutes = Math.ceil(seconds / 60);
  return { ok: false, message: `Too many failed sign-ins ${what}: try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, retryAfter: seconds };
}
