import nodemailer, { type Transporter } from 'nodemailer';
import type { FailureReason } from '../../../shared/resources/sequence.js';

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

/**
 * Real SMTP delivery with nodemailer (`smtp://user:pass@host:port`, STARTTLS
 * when the server offers it, or `smtps://` for TLS from the start). One
 * connection per email, not a pool: sequences send few, and a new login
 * each time means changed credentials or a refused login show at once.
 */
export class SmtpMailer implements Mailer {
  private readonly transports = new Map<string, Transporter>();

  async send(smtpUrl: string, email: OutgoingEmail): Promise<void> {
    await this.transport(smtpUrl).sendMail({
      from: email.from, to: email.to, subject: email.subject, text: email.text, messageId: email.messageId,
      ...(email.inReplyTo ? { inReplyTo: email.inReplyTo, references: email.inReplyTo } : {}),
    });
  }

  close(): void {
    for (const transport of this.transports.values()) transport.close();
    this.transports.clear();
  }

  private transport(smtpUrl: string): Transporter {
    let transport = this.transports.get(smtpUrl);
    if (!transport) {
      // Short timeouts: a server that does not answer blocks the step (unknown), not the scheduler.
      transport = nodemailer.createTransport(smtpUrl, { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 } as object);
      this.transports.set(smtpUrl, transport);
    }
    return transport;
  }
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
