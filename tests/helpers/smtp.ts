import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One mail as a person would read it: headers decoded, body parts decoded to text. */
export interface ReceivedMail {
  from: string | undefined;
  to: string[];
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface SmtpPeer {
  /** For SMTP_URL or `new SmtpMailer(url, from)`. */
  url: string;
  port: number;
  /** Every mail received, oldest first. */
  mails: ReceivedMail[];
  /** The first mail (received already or within the timeout) that matches. */
  waitForMail(match?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on an ephemeral port that accepts every mail, so tests read what the app
 * actually sent over the wire instead of trusting a fake mailer. No TLS. Without `users` no
 * authentication; with them, a login is required (over the plain connection: a local test) and
 * only those user names with their passwords are let in (535 otherwise), as a tenant's own mail
 * account's server would (decision 066).
 */
export async function startSmtpPeer(options: { users?: Record<string, string> } = {}): Promise<SmtpPeer> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const users = options.users;
  const server = new SMTPServer({
    authOptional: !users,
    ...(users
      ? {
          allowInsecureAuth: true,
          authMethods: ['PLAIN', 'LOGIN'],
          onAuth(auth, _session, callback) {
            if (auth.username && users[auth.username] !== undefined && users[auth.username] === auth.password)
              return callback(null, { user: auth.username });
            const refused = new Error('Invalid username or password') as Error & { responseCode: number };
            refused.responseCode = 535;
            return callback(refused);
          },
        }
      : {}),
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mailFrom = session.envelope.mailFrom;
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          from: mailFrom ? mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          ...parseMail(raw),
          raw,
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    waitForMail(match = () => true, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = mails.find(match);
          if (!found) return false;
          cleanup();
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no matching mail within ${timeoutMs} ms (${mails.length} received)`));
        }, timeoutMs);
        const wake = () => void check();
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(wake);
        };
        waiters.add(wake);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ---- a small MIME reader: enough for what nodemailer writes --------------------------------

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? '' : raw.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  return { headers, body };
}

function decodeQuotedPrintable(s: string): string {
  const soft = s.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words, as in a non-ASCII subject. */
function decodeWords(s: string): string {
  return s
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '').toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
}

function parseMail(raw: string): { subject: string; text: string; html: string } {
  const { headers } = splitHeaders(raw);
  const out = { subject: decodeWords(headers.get('subject') ?? ''), text: '', html: '' };
  const walk = (part: string) => {
    const { headers: h, body } = splitHeaders(part);
    const type = h.get('content-type') ?? 'text/plain';
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (/^multipart\//i.test(type) && boundary) {
      for (const sub of body.split(`--${boundary}`).slice(1)) {
        if (sub.startsWith('--')) break;
        walk(sub.replace(/^\r?\n/, ''));
      }
      return;
    }
    const decoded = decodeBody(body, h.get('content-transfer-encoding'));
    if (/^text\/html/i.test(type)) out.html ||= decoded;
    else if (/^text\/plain/i.test(type)) out.text ||= decoded;
  };
  walk(raw);
  return out;
}
