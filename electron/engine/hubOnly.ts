import type { Clock } from './clock.js';
import type { Db } from './db/database.js';
import { openPostgres, openPreparedPostgres } from './db/postgres/open.js';
import { NoticeListener } from './db/postgres/noticeListener.js';
import { AUTH_CHANGES } from './db/postgres/clusterTables.js';
import type { Mailer } from './sequences/mail.js';
import { SmtpMailer } from './sequences/mailer.js';
import { sendTestEmail as sendOverSmtp } from './sequences/testEmail.js';
import type { TestEmail } from './sequences/mail.js';

/**
 * What only a hub opens: its PostgreSQL database, the notices of its other
 * nodes, its SMTP client (pg and nodemailer), and an admin's test email. Node's side; in the browser
 * (hubOnly.web.ts) a replica never asks, and each refuses.
 */

/** The hub's PostgreSQL database; `prepared`: already at this version's schema (a node's engine workers). */
export function openHubPostgres(url: string, clock: Clock, prepared: boolean): Db {
  return prepared ? openPreparedPostgres(url, clock) : openPostgres(url, clock);
}

/** The notices that tokens or permissions changed, from every node of the hub. */
export function listenToAuthChanges(url: string, onChange: () => void): NoticeListener {
  return new NoticeListener(url, AUTH_CHANGES, onChange);
}

/** Sequence emails over SMTP. */
export function smtpMailer(): Mailer {
  return new SmtpMailer();
}

/** An admin's test of the account's mail server (sequences/testEmail.ts); resolves with the message id. */
export function sendTestEmail(smtpUrl: string, email: TestEmail): Promise<string> {
  return sendOverSmtp(smtpUrl, email);
}
