import nodemailer from 'nodemailer';
import { TestEmailFailure, type TestEmail } from './mail.js';

export { TestEmailFailure, type TestEmail };

/** The whole attempt is bounded: an admin waits for the answer on the screen. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 15_000 };

interface SmtpError {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
  message?: string;
}

/**
 * Sends a short message through the SMTP server at `smtpUrl` with a
 * connection of its own (closed afterwards), so the settings just saved are
 * the ones tried. Resolves with the message id; rejects with a
 * TestEmailFailure that says what the server answered, never the URL (it
 * holds the password).
 */
export async function sendTestEmail(smtpUrl: string, email: TestEmail): Promise<string> {
  const transport = nodemailer.createTransport(smtpUrl, TIMEOUTS as object);
  try {
    const info = await transport.sendMail({
      from: email.from,
      to: email.to,
      subject: 'Outpost test email',
      text: 'This is a test email from Outpost. Sequences send their emails through this mail server, so they can reach people.\n',
    });
    return String(info.messageId);
  } catch (err) {
    throw new TestEmailFailure(failureInWords(err as SmtpError, smtpUrl), isRecipientRefusal(err as SmtpError));
  } finally {
    transport.close();
  }
}

function isRecipientRefusal({ code, command, responseCode }: SmtpError): boolean {
  return responseCode !== undefined && responseCode >= 500 && (code === 'EENVELOPE' || command === 'RCPT TO');
}

/** The failure as an admin can act on it; the server's own answer is quoted where there is one. */
function failureInWords(error: SmtpError, smtpUrl: string): string {
  const server = serverName(smtpUrl);
  const answer = error.response ? ` It answered: "${error.response.trim()}".` : '';
  switch (error.code) {
    case 'EAUTH':
      return `The mail server ${server} refused the user name or password.${answer}`;
    case 'EDNS':
      return `The mail server's name in ${server} could not be found.`;
    case 'ETIMEDOUT':
      return `The mail server ${server} did not answer in time.`;
    case 'ETLS':
      return `A secure connection to the mail server ${server} could not be made: check the security setting.${answer}`;
    case 'ECONNECTION':
    case 'ESOCKET':
      return `The mail server ${server} could not be reached (${connectionProblem(error.message ?? '')}).`;
    default:
      if (isRecipientRefusal(error)) return `The mail server ${server} refused the recipient.${answer}`;
      if (error.responseCode !== undefined && error.responseCode < 500) return `The mail server ${server} refused the message for now.${answer}`;
      return `The mail server ${server} refused the message.${answer || ` ${error.message ?? ''}`.trimEnd()}`;
  }
}

/** `host:port` of the URL, without its user name or password. */
function serverName(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  return `${url.hostname}:${url.port || (url.protocol === 'smtps:' ? '465' : '587')}`;
}

function connectionProblem(message: string): string {
  if (/ECONNREFUSED/.test(message)) return 'the connection was refused';
  if (/ECONNRESET/.test(message)) return 'the connection was closed';
  if (/EHOSTUNREACH|ENETUNREACH/.test(message)) return 'the network has no way to it';
  if (/certificate|SSL|TLS|wrong version/i.test(message)) return 'the secure connection failed: check the security setting';
  return message || 'no answer';
}
