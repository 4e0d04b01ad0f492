import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '~/core/db/database';
import { schemaNameForSlug } from '~/core/db/identifiers';
import { setDatabase, withControl } from '~/core/db/with-tenant';
import { PermanentJobError, runJob } from '~/core/jobs/define-job';
import { openTestDatabase, uniqueSlug } from '~/tests/helpers/db';
import { OutboxMailer, SmtpMailer, createMailer, readOutbox, sendMailJob, setMailer } from './mailer';

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}

const FROM = 'Ordo <no-reply@ordo.example>';
const REFUSED = 'nobody@example.com';
let db: Database;
let server: SMTPServer;
let smtpUrl: string;
const received: Received[] = [];

beforeAll(async () => {
  db = await openTestDatabase();
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address === REFUSED) {
        const err = Object.assign(new Error('No such mailbox'), { responseCode: 550 });
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mailFrom = session.envelope.mailFrom;
        received.push({
          from: mailFrom ? mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  smtpUrl = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await db?.close();
  setDatabase(undefined);
});

afterEach(() => {
  received.length = 0;
  setMailer(undefined);
});

describe('SmtpMailer', () => {
  it('delivers recipients, subject and body to a real SMTP peer', async () => {
    const mailer = new SmtpMailer(smtpUrl, FROM);
    try {
      await mailer.send({
        to: ['anna@example.com', 'bo@example.com'],
        subject: 'Work order 42 is done',
        text: 'The door at Storgatan 1 was serviced.',
        html: '<p>The door at <b>Storgatan 1</b> was serviced.</p>',
      });
    } finally {
      await mailer.close();
    }
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail!.from).toBe('no-reply@ordo.example');
    expect(mail!.to).toEqual(['anna@example.com', 'bo@example.com']);
    expect(mail!.raw).toMatch(/^Subject: Work order 42 is done\r?$/m);
    expect(mail!.raw).toMatch(/^To: anna@example.com, bo@example.com\r?$/m);
    expect(mail!.raw).toContain('The door at Storgatan 1 was serviced.');
    expect(mail!.raw).toContain('<b>Storgatan 1</b>');
  });

  it('refuses a subject that would inject headers', async () => {
    const mailer = new SmtpMailer(smtpUrl, FROM);
    await expect(
      mailer.send({ to: ['anna@example.com'], subject: 'Hi\r\nBcc: evil@example.com', text: 'x' }),
    ).rejects.toThrow();
    await mailer.close();
    expect(received).toHaveLength(0);
  });
});

describe('sendMailJob', () => {
  it('sends through the process mailer', async () => {
    setMailer(new SmtpMailer(smtpUrl, FROM));
    await runJob(
      sendMailJob,
      { to: ['carl@example.com'], subject: 'From a job', text: 'Queued mail.' },
      { jobId: '1', attempt: 1 },
    );
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual(['carl@example.com']);
    expect(received[0]!.raw).toContain('Queued mail.');
  });

  it('fails for good (no retries) when the SMTP server refuses the recipient', async () => {
    setMailer(new SmtpMailer(smtpUrl, FROM));
    await expect(
      runJob(sendMailJob, { to: [REFUSED], subject: 'Lost', text: 'x' }, { jobId: '2', attempt: 1 }),
    ).rejects.toBeInstanceOf(PermanentJobError);
  });

  it('is retried (not permanent) when the SMTP server cannot be reached', async () => {
    setMailer(new SmtpMailer('smtp://127.0.0.1:1', FROM));
    const attempt = runJob(
      sendMailJob,
      { to: ['dan@example.com'], subject: 'x', text: 'x' },
      { jobId: '3', attempt: 1 },
    );
    await expect(attempt).rejects.toThrow();
    await expect(attempt).rejects.not.toBeInstanceOf(PermanentJobError);
  });
});

describe('OutboxMailer and readOutbox', () => {
  it('keeps mail for operators, newest first, filterable by tenant', async () => {
    const slug = uniqueSlug('mail');
    const [tenant] = await withControl((trx) =>
      trx('tenants')
        // Only a registry row, no schema: 'provisioning' keeps it out of jobs that walk active tenants.
        .insert({ slug, schema_name: schemaNameForSlug(slug), display_name: 'Mail AB', status: 'provisioning' })
        .returning('id'),
    );
    const mailer = new OutboxMailer(FROM);
    const first = await mailer.send({
      to: ['eva@example.com'],
      subject: 'Welcome',
      text: 'Sign in here.',
      tenantId: tenant.id,
    });
    const second = await mailer.send({
      to: ['ops@example.com'],
      subject: 'System',
      text: 'Plain',
      html: '<p>Plain</p>',
    });

    const all = await readOutbox({ limit: 10 });
    expect(all.map((m) => m.id).slice(0, 2)).toEqual([second.id, first.id]);
    expect(all[1]).toMatchObject({
      id: first.id,
      tenantId: tenant.id,
      from: FROM,
      to: ['eva@example.com'],
      subject: 'Welcome',
      text: 'Sign in here.',
      html: null,
    });
    expect(all[1]!.createdAt).toBeInstanceOf(Date);
    expect(all[0]).toMatchObject({ tenantId: null, html: '<p>Plain</p>' });

    expect((await readOutbox({ limit: 10, tenantId: tenant.id })).map((m) => m.id)).toEqual([first.id]);
    expect(await readOutbox({ limit: 1 })).toHaveLength(1);
    expect(received).toHaveLength(0);
  });
});

describe('createMailer', () => {
  it('uses SMTP when SMTP_URL is set and the outbox otherwise', async () => {
    const smtp = createMailer({ SMTP_URL: smtpUrl, MAIL_FROM: FROM });
    expect(smtp).toBeInstanceOf(SmtpMailer);
    await smtp.close();
    expect(createMailer({ SMTP_URL: undefined, MAIL_FROM: FROM })).toBeInstanceOf(OutboxMailer);
  });
});
