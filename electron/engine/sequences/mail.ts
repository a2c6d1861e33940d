import type { FailureReason } from '../../../shared/resources/sequence.js';

// What the scheduler knows of sending email, with no SMTP client (mailer.ts has one: hubs only).

export interface OutgoingEmail {
  from: { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  /** `<key@outpost>`: the attempt that sent it, so a resend can be recognised. */
  messageId: string;
  inReplyTo?: string;
}

/** Sends one email through the SMTP server at `smtpUrl`; rejects with the SMTP error when it is refused. */
export interface Mailer {
  send(smtpUrl: string, email: OutgoingEmail): Promise<void>;
  close(): void;
}

interface SmtpError {
  code?: string;
  responseCode?: number;
  command?: string;
}

/**
 * The spec's failure_reason for an SMTP failure: a refused login (535, or
 * nodemailer's EAUTH) is `auth`; a temporary refusal (4xx, such as 421 or
 * 452 "too many messages") is `sendout_limited`; a refused recipient (5xx
 * to RCPT TO) is `recipient_invalid`; anything else `unknown`.
 */
export function failureReasonOf(error: unknown): FailureReason {
  const { code, responseCode, command } = (error ?? {}) as SmtpError;
  if (code === 'EAUTH' || responseCode === 535) return 'auth';
  if (responseCode !== undefined && responseCode >= 400 && responseCode < 500) return 'sendout_limited';
  if (responseCode !== undefined && responseCode >= 500 && (code === 'EENVELOPE' || command === 'RCPT TO')) return 'recipient_invalid';
  return 'unknown';
}

export interface TestEmail {
  from: { name: string; address: string };
  to: string;
}

/** What went wrong, in words, and whether it is about the recipient (the `to` field) or the server settings. */
export class TestEmailFailure extends Error {
  constructor(message: string, readonly aboutRecipient: boolean) {
    super(message);
  }
}
