import { afterAll, describe, expect, it, vi } from 'vitest';
import { ImapFlow } from 'imapflow';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import { connectDb, type DbHandle } from '../../db/client.ts';
import { accounts, mailboxes } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { appendMail, mailboxSettings, startDovecot } from '../../../test/dovecot.ts';
import { MailIdleWatchers, mailIdleOf } from './mail-idle.ts';

/**
 * New mail over IMAP IDLE (decision 090), against a real Dovecot (it offers IDLE): the polling set
 * to once a day and its jobs counted, so only the IDLE watcher can bring a mail in. A second app
 * instance on the same database leaves the mailbox to the first, and takes it over once the first
 * stops (its lease given back).
 */
const dovecot = await startDovecot();
const t = await createTestApp({ MAIL_POLL_SECONDS: '86400' });
const { app, db } = t;
const extra: { app: FastifyInstance; handle: DbHandle }[] = [];
afterAll(async () => {
  for (const e of extra) {
    await e.app.close();
    await e.handle.close();
  }
  await dovecot.stop();
});
const admin = await t.user({ roles: ['admin'] });
const rfcDate = (d: Date) => d.toUTCString().replace('GMT', '+0000');

/** Waits for a condition, looking every 50 ms; fails after `ms`. */
async function until(what: string, check: () => Promise<boolean> | boolean, ms = 20_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not within ${ms / 1000} s: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const [client] = await db.insert(accounts).values({ firstName: 'Ειρήνη', lastName: 'Σταύρου', isClient: true, emails: ['irini.s@example.gr'] }).returning({ id: accounts.id });
const box = (await admin.post('/api/mailboxes/update', mailboxSettings(dovecot))).json();
const subjects = async () => ((await admin.get(`/api/mail?accountId=${client!.id}`)).json().items as { subject: string }[]).map((m) => m.subject);
/** The sync jobs run or queued so far (the daily poll and "sync now"). */
const syncJobs = async () => (await db.execute(sql`select count(*)::int as n from jobs where name in ('mail.sync', 'mail.syncOne')`)).rows[0]!.n as number;
const send = (n: number) =>
  appendMail(dovecot, `From: Irini <irini.s@example.gr>\nTo: info@agency.test\nSubject: Question ${n}\nMessage-ID: <q${n}@example.gr>\nDate: ${rfcDate(new Date())}\n\nQuestion ${n}.\n`);

describe('new mail over IDLE', () => {
  it('arrives on the record within seconds, with no poll run, from a connection one instance holds', async () => {
    await app.jobs.drain();
    const watchers = mailIdleOf(app)!;
    // The mailbox was added after the last scan: taken at the next one (every 15 s), run here at once.
    await watchers.scan();
    await until('the watcher is in IDLE', () => watchers.idling(box.id));
    const [row] = await db.select().from(mailboxes).where(eq(mailboxes.id, box.id));
    expect(row!.idleHeldBy).toBe(app.jobs.instanceId);

    // A second instance on the same database leaves the mailbox to the first.
    const handle = connectDb(t.dbUrl, 3);
    const other = await buildApp({ config: t.config, db: handle.db });
    await other.ready();
    extra.push({ app: other, handle });
    await mailIdleOf(other)!.scan();
    expect(mailIdleOf(other)!.idling(box.id)).toBe(false);
    expect((await db.select().from(mailboxes).where(eq(mailboxes.id, box.id)))[0]!.idleHeldBy).toBe(app.jobs.instanceId);

    const jobs = await syncJobs();
    await send(1);
    await until('the mail is on the record', async () => (await subjects()).includes('Question 1'));
    expect(await syncJobs()).toBe(jobs);
    expect(await subjects()).toEqual(['Question 1']);
  });

  it('stopped (SIGTERM closes the app), an instance gives the lease back and another takes the mailbox over', async () => {
    const other = extra[0]!.app;
    await mailIdleOf(app)!.stop();
    expect((await db.select().from(mailboxes).where(eq(mailboxes.id, box.id)))[0]!.idleHeldBy).toBeNull();
    await mailIdleOf(other)!.scan();
    await until('the other instance is in IDLE', () => mailIdleOf(other)!.idling(box.id));
    expect((await db.select().from(mailboxes).where(eq(mailboxes.id, box.id)))[0]!.idleHeldBy).toBe(other.jobs.instanceId);
    const jobs = await syncJobs();
    await send(2);
    await until('the second mail is on the record', async () => (await subjects()).includes('Question 2'));
    expect(await syncJobs()).toBe(jobs);
    expect(await subjects()).toEqual(['Question 2', 'Question 1']);
  });
  it('a server that drops each IDLE at once is reconnected to after a wait that keeps doubling, not every 5 s', async () => {
    await mailIdleOf(extra[0]!.app)!.stop();
    const idle = vi.spyOn(ImapFlow.prototype, 'idle').mockResolvedValue(false);
    const warn = vi.spyOn(app.log, 'warn');
    const watchers = new MailIdleWatchers(app, 'storm-test');
    try {
      await watchers.scan();
      const waits = () => warn.mock.calls.filter((c) => c[1] === 'mailbox IDLE connection lost').map((c) => (c[0] as { retryInSeconds: number }).retryInSeconds);
      await until('two reconnects', () => waits().length >= 2, 30_000);
      expect(waits().slice(0, 2)).toEqual([5, 10]);
    } finally {
      await watchers.stop();
      idle.mockRestore();
      warn.mockRestore();
    }
  });
});
