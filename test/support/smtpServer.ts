import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface CapturedEmail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  messageId: string;
  inReplyTo: string | null;
}

export interface TestSmtpServer {
  /** `smtp://user:pass@127.0.0.1:<port>` for the account's settings. */
  url: string;
  messages: CapturedEmail[];
  /** What the server answers from now on: accept, refuse the login (535), or refuse messages temporarily (452). */
  mode: 'accept' | 'reject_auth' | 'rate_limit';
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 (no TLS) that captures every message it accepts. */
export async function startSmtpServer(user = 'mailer', password = 'mail-secret'): Promise<TestSmtpServer> {
  const state: TestSmtpServer = { url: '', messages: [], mode: 'accept', close: async () => {} };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: false,
    logger: false,
    onAuth(auth, _session, done) {
      if (state.mode === 'reject_auth' || auth.username !== user || auth.password !== password) {
        const error = Object.assign(new Error('Invalid username or password'), { responseCode: 535 });
        return done(error);
      }
      done(null, { user: auth.username });
    },
    onMailFrom(_address, _session, done) {
      if (state.mode === 'rate_limit') return done(Object.assign(new Error('Too many messages, try later'), { responseCode: 452 }));
      done();
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        state.messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject: header(raw, 'Subject') ?? '',
          messageId: header(raw, 'Message-ID') ?? '',
          inReplyTo: header(raw, 'In-Reply-To'),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  state.url = `smtp://${user}:${password}@127.0.0.1:${port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

function header(raw: string, name: string): string | null {
  const match = new RegExp(`^${name}:\\s*(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(raw.split(/\r?\n\r?\n/)[0]);
  return match ? match[1].replace(/\r?\n[ \t]+/g, ' ').trim() : null;
}
