import nodemailer, { type Transporter } from 'nodemailer';
import type { Mailer, OutgoingEmail } from './mail.js';

export { failureReasonOf, type Mailer, type OutgoingEmail } from './mail.js';

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
