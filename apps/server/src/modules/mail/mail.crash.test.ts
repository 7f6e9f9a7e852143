import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { accounts, mailboxes } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { imapOf, startDovecot } from '../../../test/dovecot.ts';
import { addMailbox } from '../../../test/mailboxes.ts';
import { syncMailbox } from './mail-sync.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { sweepPendingFiles } from '../../storage/pending-files.ts';

/**
 * A sync killed in the middle (kill -9) loses and duplicates nothing (issue 46, decision 078): a
 * second process (test/mail-sync-child.ts) syncs a real Dovecot folder of many messages into this
 * test's database and is killed with SIGKILL while it stores them; the next sync takes the rest,
 * each message once, with its attachment and its link to the sender's account.
 */
const TOTAL = 600;
const dovecot = await startDovecot();
afterAll(() => dovecot.stop());
// Files named pending are orphans at once here (the housekeeping swept with a grace period of 0, decision 104).
const t = await createTestApp({}, undefined, { jobs: false });
const admin = await t.user({ roles: ['admin'] });
const server = path.resolve(import.meta.dirname, '../../..');

const count = async (q: ReturnType<typeof sql>) => Number(((await t.db.execute(q)).rows[0] as { n: number }).n);

describe('a sync killed with SIGKILL in the middle', () => {
  it('is taken up by the next sync: every message once, with its attachment and its account', async () => {
    const [{ id: accountId }] = await t.db.insert(accounts).values({ firstName: 'Σοφία', lastName: 'Κρητικού', isOwner: true, emails: ['sofia@example.gr'] }).returning({ id: accounts.id });
    const folder = 'Crash';
    // Delivered over one IMAP connection.
    const imap = await imapOf(dovecot);
    await imap.mailboxCreate(folder);
    for (let i = 1; i <= TOTAL; i++) {
      const raw = `From: sofia@example.gr\nTo: info@agency.test\nSubject: Note ${i}\nMessage-ID: <crash-${i}@example.gr>\nDate: ${new Date(Date.now() - (TOTAL - i) * 60_000).toUTCString()}\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b1\n\n--b1\nContent-Type: text/plain; charset=utf-8\n\nNote ${i}.\n--b1\nContent-Type: application/pdf; name="n${i}.pdf"\nContent-Disposition: attachment; filename="n${i}.pdf"\nContent-Transfer-Encoding: base64\n\nJVBERi0xLjQKJcTl8uXrCg==\n--b1--\n`;
      await imap.append(folder, raw.replace(/\n/g, '\r\n'));
    }
    await imap.logout();
    const id = await addMailbox(admin, dovecot, { imapFolder: folder });
    const stored = () => count(sql`select count(*)::int as n from mail_messages where mailbox_id = ${id}`);

    // The child's connections are named, so that their end can be waited for: a COMMIT sent just
    // before the kill may still finish in its server process after the child is gone.
    const appName = `mail-sync-child-${process.pid}-${id}`;
    const childUrl = `${t.dbUrl}${t.dbUrl.includes('?') ? '&' : '?'}application_name=${appName}`;
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/mail-sync-child.ts', childUrl, t.dataDir, String(id)], { cwd: server, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    let before: number;
    try {
      let out = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      // Killed once it has stored a good part of the folder, before the end.
      await expect.poll(stored, { timeout: 120_000, interval: 20 }).toBeGreaterThanOrEqual(120);
      // Its connections were opened with its name (the count stays 0 if the name did not reach the server).
      expect(await count(sql`select count(*)::int as n from pg_stat_activity where application_name = ${appName}`)).toBeGreaterThan(0);
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      expect(out).not.toContain('done');
      await expect.poll(() => count(sql`select count(*)::int as n from pg_stat_activity where application_name = ${appName}`), { timeout: 60_000 }).toBe(0);
      before = await stored();
      expect(before).toBeLessThan(TOTAL);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }

    // The dead sync's lease runs out (5 minutes; ended here), then the next sync takes the rest.
    expect(await syncMailbox(t.app, id)).toBeNull();
    await t.db.update(mailboxes).set({ syncLockedUntil: null }).where(eq(mailboxes.id, id));
    const res = await syncMailbox(t.app, id);
    expect(res).toMatchObject({ added: TOTAL - before });
    expect(await stored()).toBe(TOTAL);
    expect(await count(sql`select count(distinct message_id)::int as n from mail_messages where mailbox_id = ${id}`)).toBe(TOTAL);
    expect(await count(sql`select count(*)::int as n from mail_attachments a join mail_messages m on m.id = a.message_id where m.mailbox_id = ${id}`)).toBe(TOTAL);
    expect(await count(sql`select count(*)::int as n from mail_message_accounts where account_id = ${accountId}`)).toBe(TOTAL);
    const thread = (await admin.get(`/api/mail?accountId=${accountId}&perPage=5`)).json();
    expect(thread.totalRows).toBe(TOTAL);
    expect(thread.items.map((m: { subject: string }) => m.subject)).toEqual([600, 599, 598, 597, 596].map((n) => `Note ${n}`));
    // And again: nothing more.
    expect(await syncMailbox(t.app, id)).toMatchObject({ added: 0 });
    // Whatever file the killed sync wrote for a message it never committed, the housekeeping removes:
    // the store then holds exactly the files the stored attachments name.
    await sweepPendingFiles(t.app, 0);
    const named = ((await t.db.execute(sql`select system_name from mail_attachments order by system_name`)).rows as { system_name: string }[]).map((r) => r.system_name);
    const inStore: string[] = [];
    for await (const f of getFileStorage(t.dataDir).list()) inStore.push(f.name);
    expect(inStore.sort()).toEqual(named);
    expect(await count(sql`select count(*)::int as n from stored_files_pending`)).toBe(0);
  }, 240_000);
});
