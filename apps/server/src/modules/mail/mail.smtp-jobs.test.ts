import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { accounts, mailMessages } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { appendMail, folderEnvelopes, mailboxSettings, startDovecot } from '../../../test/dovecot.ts';

/**
 * The outgoing side of a connection test against a real SMTP server (smtp-server, started here),
 * and a saved mailbox synced by the job runner itself (the app's own background work, running).
 */
const dovecot = await startDovecot();
afterAll(() => dovecot.stop());

/** What the SMTP server was given: its envelope and the message as sent. */
const received: { to: string[]; raw: string }[] = [];
async function startSmtp(opts: { starttls: boolean }) {
  const server = new SMTPServer({
    secure: false,
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: opts.starttls ? [] : ['STARTTLS'],
    logger: false,
    onAuth: (auth, _session, cb) => (auth.username === 'agent' && auth.password === 'smtp secret' ? cb(null, { user: 'agent' }) : cb(new Error('Invalid username or password'))),
    onData: (stream, session, cb) => {
      const parts: Buffer[] = [];
      stream.on('data', (d: Buffer) => parts.push(d));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(parts).toString('utf8') });
        cb();
      });
    },
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.server.address() as net.AddressInfo).port)));
  return { port, close: () => new Promise<void>((r) => server.close(() => r())) };
}
const plain = await startSmtp({ starttls: false });
const withTls = await startSmtp({ starttls: true });
afterAll(() => Promise.all([plain.close(), withTls.close()]));

const t = await createTestApp();
const admin = await t.user({ roles: ['admin'] });
const mailbox = (over: Record<string, unknown> = {}) =>
  mailboxSettings(dovecot, { smtpHost: '127.0.0.1', smtpPort: plain.port, smtpUser: 'agent', smtpPassword: 'smtp secret', ...over });

describe('the outgoing server in a connection test', () => {
  it('signs in, or names the sign-in or the TLS as what failed', async () => {
    const test = async (over: Record<string, unknown>) => (await admin.post('/api/mailboxes/test', mailbox(over))).json();
    expect(await test({})).toMatchObject({ ok: true, imap: { ok: true }, smtp: { ok: true, step: null } });
    expect(await test({ smtpPassword: 'wrong' })).toMatchObject({ ok: false, imap: { ok: true }, smtp: { ok: false, step: 'signIn', message: 'Sign-in was refused: check the user name and the password.' } });
    // The server offers STARTTLS with a certificate no authority signed: the TLS step fails.
    expect(await test({ smtpPort: withTls.port })).toMatchObject({ ok: false, smtp: { ok: false, step: 'tls' } });
    const res = await admin.post('/api/mailboxes/test', mailbox({ smtpPassword: 'wrong' }));
    expect(res.body).not.toContain('wrong');
    expect(res.body).not.toContain(dovecot.password);
  });
});

describe('the sync job', () => {
  it('a saved mailbox is synced by the job runner, and its SMTP password is stored and kept write-only', async () => {
    await appendMail(dovecot, `From: buyer@example.gr\nTo: info@agency.test\nSubject: Hello\nMessage-ID: <job@example.gr>\nDate: ${new Date().toUTCString()}\n\nHi.\n`);
    const res = await admin.post('/api/mailboxes/update', mailbox());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ smtpPasswordSet: true, imapPasswordSet: true });
    expect(res.body).not.toContain('smtp secret');
    await t.app.jobs.drain();
    const rows = await t.db.select().from(mailMessages).where(eq(mailMessages.mailboxId, res.json().id));
    expect(rows.map((r) => r.messageId)).toEqual(['<job@example.gr>']);
    const box = (await admin.get('/api/mailboxes')).json().items[0];
    expect(box).toMatchObject({ messages: 1, lastSyncError: null });
    expect(box.lastSyncOn).not.toBeNull();
  });
});

describe('a reply from the record', () => {
  it('goes out over the mailbox\'s SMTP server, threaded, to the sender (and all on request); kept on the records and in the Sent folder', async () => {
    const [{ id: accountId }] = await t.db.insert(accounts).values({ firstName: 'Nikos', lastName: 'Petrou', isOwner: true, emails: ['nikos@example.gr'] }).returning({ id: accounts.id });
    await appendMail(
      dovecot,
      `From: Nikos <nikos@example.gr>\nTo: info@agency.test, lawyer@example.gr\nCc: notary@example.gr\nSubject: The contract\nMessage-ID: <orig@example.gr>\nReferences: <first@example.gr>\nDate: ${new Date().toUTCString()}\n\nPlease send the draft.\n`,
    );
    const box = (await admin.get('/api/mailboxes')).json().items[0];
    await admin.post(`/api/mailboxes/${box.id}/sync`);
    await t.app.jobs.drain();
    const original = (await admin.get(`/api/mail?accountId=${accountId}`)).json().items[0];
    expect(original.subject).toBe('The contract');

    const agent = await t.user({ roles: ['employee'] });
    expect((await agent.post(`/api/mail/${original.id}/reply`, { text: '' })).statusCode).toBe(400);
    const res = await agent.post(`/api/mail/${original.id}/reply`, { text: 'Here it is.' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ subject: 'Re: The contract', from: { address: 'info@agency.test', name: 'Office' }, to: [{ address: 'nikos@example.gr' }], cc: [] });
    const sent = received.at(-1)!;
    expect(sent.to).toEqual(['nikos@example.gr']);
    expect(sent.raw).toMatch(/^In-Reply-To: <orig@example\.gr>$/m);
    expect(sent.raw).toMatch(/^References: <first@example\.gr> <orig@example\.gr>$/m);
    expect(sent.raw).toMatch(/^Subject: Re: The contract$/m);
    expect(sent.raw).toContain('Here it is.');
    expect(sent.raw).toContain('> Please send the draft.');
    const all = await agent.post(`/api/mail/${original.id}/reply`, { text: 'To all of you.', all: true });
    expect(all.statusCode, all.body).toBe(200);
    expect(received.at(-1)!.to.sort()).toEqual(['lawyer@example.gr', 'nikos@example.gr', 'notary@example.gr']);

    // On the record, newest first, beside the original.
    const thread = (await admin.get(`/api/mail?accountId=${accountId}`)).json();
    expect(thread.items.map((m: { subject: string }) => m.subject)).toEqual(['Re: The contract', 'Re: The contract', 'The contract']);
    // In the mailbox's Sent folder on the IMAP server, once each.
    const subjects = await folderEnvelopes(dovecot, (e) => `${e?.subject} ${e?.inReplyTo}`);
    expect(subjects).toEqual(['Re: The contract <orig@example.gr>', 'Re: The contract <orig@example.gr>']);
    // A sync of the mailbox afterwards adds neither reply again (the Sent folder is not the one synced; Message-ID would tell anyway).
    await admin.post(`/api/mailboxes/${box.id}/sync`);
    await t.app.jobs.drain();
    expect((await admin.get(`/api/mail?accountId=${accountId}`)).json().totalRows).toBe(3);
  });
});
