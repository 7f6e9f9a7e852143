import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { accounts } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { appendMail, startDovecot } from '../../../test/dovecot.ts';
import { addMailbox } from '../../../test/mailboxes.ts';
import { startChild, type AppChild } from '../../../test/app-children.ts';
import { s3Env, startS3Server } from '../../../test/s3-server.ts';
import { getFileStorage, shardOf, type LocalDiskStorage } from '../../storage/file-storage.ts';
import { PENDING_FILES_SWEEP_JOB, sweepPendingFiles } from '../../storage/pending-files.ts';
import { syncMailbox, type SyncResult } from './mail-sync.ts';

/**
 * A sync killed (kill -9) after writing an attachment's file and before its message committed
 * leaves no orphan for good (decision 104): the file was named pending first, the housekeeping
 * removes it, and the next sync stores the message once with its attachment. A sync held at the
 * same point while the housekeeping takes its file cannot commit a message naming it.
 * Real processes (test/app-child.ts) against a real Dovecot, with the files on local disk and in
 * an S3 store (s3rver); the housekeeping sweeps with a grace period of 0 here.
 */
const dovecot = await startDovecot();
const s3 = await startS3Server('crm-orphans');
const children: AppChild[] = [];
afterAll(async () => {
  for (const c of children) await c.stop();
  await dovecot.stop();
  await s3.stop();
});
const S3_ENV = s3Env(s3.settings, { S3_PREFIX: 'crm/' });
const stores = [
  { store: 'local disk', env: {} as Record<string, string> },
  { store: 'an S3 store', env: S3_ENV },
];
const apps = await Promise.all(stores.map((s) => createTestApp(s.env, undefined, { jobs: false })));
const PDF = Buffer.from('%PDF-1.4\n% kept once\n');

const mailText = (n: number) =>
  `From: eleni@example.gr\r\nTo: info@agency.test\r\nSubject: Contract ${n}\r\nMessage-ID: <orphan-${n}@example.gr>\r\nDate: ${new Date().toUTCString()}\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b1\r\n\r\n--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nThe contract, signed.\r\n--b1\r\nContent-Type: application/pdf; name="contract-${n}.pdf"\r\nContent-Disposition: attachment; filename="contract-${n}.pdf"\r\nContent-Transfer-Encoding: base64\r\n\r\n${PDF.toString('base64')}\r\n--b1--\r\n`;

describe.each(stores.map((s, i) => ({ ...s, i })))('an attachment written by a sync killed before its message committed, on $store', ({ env: storeEnv, i }) => {
  const t = apps[i]!;
  let admin: Awaited<ReturnType<typeof t.user>>;
  const storage = () => getFileStorage(t.dataDir);
  const rows = async <T>(q: ReturnType<typeof sql>) => (await t.db.execute(q)).rows as T[];
  const pending = () => rows<{ name: string }>(sql`select name from stored_files_pending order by name`);
  async function storedFiles() {
    const out: string[] = [];
    for await (const f of storage().list()) out.push(f.name);
    return out.sort();
  }
  /** Syncs in this process, asking again while another (a dead sync whose lease has not lapsed yet) holds the mailbox. */
  async function syncHere(id: number): Promise<NonNullable<SyncResult>> {
    for (let n = 0; ; n++) {
      const r = await syncMailbox(t.app, id);
      if (r) return r;
      if (n > 600) throw new Error('the mailbox stayed held');
      await new Promise((done) => setTimeout(done, 100));
    }
  }
  beforeAll(async () => {
    admin = await t.user({ roles: ['admin'] });
  });

  it('is removed by the housekeeping, and the next sync stores the message once with its attachment', async () => {
    await t.db.insert(accounts).values({ firstName: 'Ελένη', lastName: 'Μαυρίδου', isOwner: true, emails: ['eleni@example.gr'] });
    await appendMail(dovecot, mailText(1), { folder: `First${i}` });
    const id = await addMailbox(admin, dovecot, { imapFolder: `First${i}` });

    // A second process syncs, held just after the attachment's file is written; then killed -9 there.
    const child = startChild(t, 'sync', [String(id)], { CRM_PAUSE_AT: 'mail.store.filesWritten', CHILD_ENV: JSON.stringify({ MAIL_SYNC_LEASE_SECONDS: '2', ...storeEnv }) });
    children.push(child);
    await child.said((l) => l === 'paused mail.store.filesWritten');
    const [left] = await pending();
    expect(left).toBeDefined();
    expect(await storage().stat(left!.name)).toEqual({ size: PDF.length });
    await child.killHard();
    expect(await child.exited).toBe('SIGKILL');
    expect(child.lines).not.toContain('done');
    // What the killed sync left: the file, named only as pending; no message.
    expect(await rows(sql`select id from mail_messages where mailbox_id = ${id}`)).toEqual([]);
    expect(await storedFiles()).toEqual([left!.name]);
    expect(await pending()).toEqual([left]);

    // The housekeeping (a recurring job of every instance) removes it.
    expect(t.app.jobs.names()).toContain(PENDING_FILES_SWEEP_JOB);
    expect(await sweepPendingFiles(t.app, 0)).toBe(1);
    expect(await storedFiles()).toEqual([]);
    expect(await pending()).toEqual([]);

    // The next sync (the dead one's lease lapsed) stores the message once, with its attachment.
    expect(await syncHere(id)).toMatchObject({ added: 1 });
    const atts = await rows<{ system_name: string; user_name: string; size: number }>(sql`select a.system_name, a.user_name, a.size from mail_attachments a join mail_messages m on m.id = a.message_id where m.mailbox_id = ${id}`);
    expect(atts).toEqual([{ system_name: expect.any(String), user_name: 'contract-1.pdf', size: PDF.length }]);
    expect(await storedFiles()).toEqual([atts[0]!.system_name]);
    expect(await pending()).toEqual([]);
    const msg = (await rows<{ id: number }>(sql`select id from mail_messages where mailbox_id = ${id}`))[0]!;
    const got = await admin.get(`/api/mail/attachment/${(await rows<{ id: number }>(sql`select id from mail_attachments where message_id = ${msg.id}`))[0]!.id}/contract-1.pdf`);
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(PDF)).toBe(true);
    expect(await syncHere(id)).toMatchObject({ added: 0 });
  }, 120_000);

  it('is never removed from under a message that commits: a sync whose file the housekeeping took stores nothing, and the next stores it', async () => {
    const id = await addMailbox(admin, dovecot, { name: 'Second', imapFolder: `Second${i}` });
    await appendMail(dovecot, mailText(2), { folder: `Second${i}` });
    const before = await storedFiles();

    // Held after writing its file (alive, not killed); the housekeeping takes the file meanwhile (grace 0 here).
    const child = startChild(t, 'sync', [String(id)], { CRM_PAUSE_AT: 'mail.store.filesWritten', CHILD_ENV: JSON.stringify(storeEnv) });
    children.push(child);
    await child.said((l) => l === 'paused mail.store.filesWritten');
    const [inFlight] = await pending();
    expect(await sweepPendingFiles(t.app, 0)).toBe(1);
    expect(await storage().stat(inFlight!.name)).toBeUndefined();
    // Let go: its message's commit finds its file taken, so nothing names a removed file. It stops
    // without an error on the mailbox (the next sync stores the message).
    child.send('go');
    await child.said((l) => l === 'done');
    expect(child.lines).toContain('{"result":null}');
    expect(await rows(sql`select id from mail_messages where mailbox_id = ${id}`)).toEqual([]);
    expect(await rows(sql`select last_sync_error from mailboxes where id = ${id}`)).toEqual([{ last_sync_error: null }]);
    expect(await storedFiles()).toEqual(before);
    expect(await pending()).toEqual([]);

    expect(await syncHere(id)).toMatchObject({ added: 1 });
    const [att] = await rows<{ system_name: string }>(sql`select a.system_name from mail_attachments a join mail_messages m on m.id = a.message_id where m.mailbox_id = ${id}`);
    expect(await storage().stat(att!.system_name)).toEqual({ size: PDF.length });
    expect(await storedFiles()).toEqual([...before, att!.system_name].sort());
  }, 120_000);

  it('taken by a sweep killed -9 after removing the file: the held sync stores nothing and clears its file and name, no row ever names a missing file', async () => {
    const id = await addMailbox(admin, dovecot, { name: 'Third', imapFolder: `Third${i}` });
    await appendMail(dovecot, mailText(3), { folder: `Third${i}` });

    // A live sync held after writing its file; a sweeping process (grace 0) held after removing the
    // files of its batch, before removing their names, and killed -9 there.
    const sync = startChild(t, 'sync', [String(id)], { CRM_PAUSE_AT: 'mail.store.filesWritten', CHILD_ENV: JSON.stringify(storeEnv) });
    children.push(sync);
    await sync.said((l) => l === 'paused mail.store.filesWritten');
    const [inFlight] = await pending();
    expect(await storage().stat(inFlight!.name)).toEqual({ size: PDF.length });
    const sweeper = startChild(t, 'sweep', ['0'], { CRM_PAUSE_AT: 'files.sweep.filesRemoved', CHILD_ENV: JSON.stringify(storeEnv) });
    children.push(sweeper);
    await sweeper.said((l) => l === 'paused files.sweep.filesRemoved');
    expect(await storage().stat(inFlight!.name)).toBeUndefined();
    await sweeper.killHard();
    expect(await sweeper.exited).toBe('SIGKILL');
    // Marked swept, the name cannot be taken off by the live sync, so its message is not stored and
    // every committed attachment names a file that is there; the sync, rolled back, removes its file
    // and the name itself.
    sync.send('go');
    await sync.said((l) => l === 'done');
    const named = await rows<{ system_name: string }>(sql`select system_name from mail_attachments`);
    for (const a of named) expect(await storage().stat(a.system_name), a.system_name).toBeDefined();
    expect(sync.lines).toContain('{"result":null}');
    expect(await rows(sql`select id from mail_messages where mailbox_id = ${id}`)).toEqual([]);
    expect(await rows(sql`select last_sync_error from mailboxes where id = ${id}`)).toEqual([{ last_sync_error: null }]);
    expect(await pending()).toEqual([]);
    expect(await storage().stat(inFlight!.name)).toBeUndefined();
    expect(await sweepPendingFiles(t.app, 3600)).toBe(0);
    expect(await syncHere(id)).toMatchObject({ added: 1 });
    const [att] = await rows<{ system_name: string }>(sql`select a.system_name from mail_attachments a join mail_messages m on m.id = a.message_id where m.mailbox_id = ${id}`);
    expect(await storage().stat(att!.system_name)).toEqual({ size: PDF.length });
  }, 120_000);
});

describe('a stored file on local disk whose put was killed midway', () => {
  const t = apps[0]!;
  it('leaves a part the sweep removes with its name', async () => {
    const name = `${'ab'.repeat(16)}.pdf`;
    const storage = getFileStorage(t.dataDir);
    await t.db.execute(sql`insert into stored_files_pending (name) values (${name})`);
    // What a writer killed during its put leaves on disk: the part, never renamed to the file.
    const part = path.join((storage as LocalDiskStorage).root, shardOf(name), `${name}.part`);
    fs.mkdirSync(path.dirname(part), { recursive: true });
    fs.writeFileSync(part, PDF.subarray(0, 5));
    expect(await sweepPendingFiles(t.app, 0)).toBe(1);
    expect(fs.existsSync(part)).toBe(false);
    expect((await t.db.execute(sql`select name from stored_files_pending where name = ${name}`)).rows).toEqual([]);
  });
});
