import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, poller } from '../../../test/harness.ts';
import { imapOf, startDovecot } from '../../../test/dovecot.ts';
import { addMailbox } from '../../../test/mailboxes.ts';
import { startChild, type AppChild } from '../../../test/app-children.ts';

/**
 * Two app processes sync one mailbox at once (issue 46, decisions 078, 104): both started together
 * on the same database, each syncing the mailbox again and again (test/app-child.ts, sync-loop).
 * Each message is stored once; the sync lease lets one process sync at a time (read from both
 * processes' logs: the database's times at which each took and gave back the lease never overlap);
 * the holder killed -9 in the middle, the other takes the mailbox over once the lease (10 s here,
 * MAIL_SYNC_LEASE_SECONDS) lapses, and stores the rest. A sync held still stops renewing its lease,
 * and one whose lease another holds stores nothing more and writes nothing on the mailbox.
 */
const TOTAL = 120;
const dovecot = await startDovecot();
const children: AppChild[] = [];
afterAll(async () => {
  for (const c of children) await c.stop();
  await dovecot.stop();
});
const t = await createTestApp({}, undefined, { jobs: false });
const admin = await t.user({ roles: ['admin'] });
const count = async (q: ReturnType<typeof sql>) => Number(((await t.db.execute(q)).rows[0] as { n: number }).n);

/** A folder of `total` messages and a mailbox syncing it; answers the mailbox's id. */
async function mailboxWith(folder: string, total: number): Promise<number> {
  const imap = await imapOf(dovecot);
  await imap.mailboxCreate(folder);
  for (let i = 1; i <= total; i++) {
    const raw = `From: nikos@example.gr\r\nTo: info@agency.test\r\nSubject: Offer ${i}\r\nMessage-ID: <${folder}-${i}@example.gr>\r\nDate: ${new Date(Date.now() - (total - i) * 60_000).toUTCString()}\r\n\r\nOffer ${i}.\r\n`;
    await imap.append(folder, raw);
  }
  await imap.logout();
  return addMailbox(admin, dovecot, { name: folder, imapFolder: folder });
}

/** Waits for what another process makes true (looked at every 100 ms; fails after 90 s). */
const until = poller({ seconds: 90, everyMs: 100 });

type Held = { from: number; to: number | null };
/** The leases a process took, from its log: when taken, when given back (null: never, it was killed or is still syncing). */
function leases(c: AppChild, mailbox: number): Held[] {
  const out: Held[] = [];
  for (const l of c.lines) {
    if (!l.startsWith('{"level"')) continue;
    const e = JSON.parse(l) as { msg: string; mailbox: number; heldFrom: string; heldTo: string | null };
    if (e.mailbox !== mailbox) continue;
    if (e.msg === 'mailbox sync lease taken') out.push({ from: Date.parse(e.heldFrom), to: null });
    if (e.msg === 'mailbox sync lease given back') {
      const open = out.find((h) => h.from === Date.parse(e.heldFrom) && h.to === null)!;
      open.to = Date.parse(e.heldTo!);
    }
  }
  return out;
}
const results = (c: AppChild) => c.lines.filter((l) => l.startsWith('{"result"')).map((l) => (JSON.parse(l) as { result: { added: number } | null }).result);

describe('two app processes syncing one mailbox', () => {
  it('store each message once, one process syncing at a time; the other takes over when the holder is killed', async () => {
    const id = await mailboxWith('Shared', TOTAL);
    const stored = () => count(sql`select count(*)::int as n from mail_messages where mailbox_id = ${id}`);

    // Both at once; whichever first finishes a batch of 50 is held still there (alive, its lease
    // renewed for two leases more), once.
    const env = {
      CRM_PAUSE_AT: 'mail.sync.batchDone',
      CRM_PAUSE_ONCE: path.join(t.dataDir, 'paused-once'),
      // 20 s: the held holder renews for 40 s more, time enough on a loaded machine for the other's
      // refusal to be seen and the holder killed before its lease could lapse on its own.
      CHILD_ENV: JSON.stringify({ MAIL_SYNC_LEASE_SECONDS: '20' }),
    };
    const a = startChild(t, 'sync-loop', [String(id)], env);
    const b = startChild(t, 'sync-loop', [String(id)], env);
    children.push(a, b);
    const paused = (l: string) => l === 'paused mail.sync.batchDone';
    const holder = await Promise.race([a.said(paused).then(() => a), b.said(paused).then(() => b)]);
    const other = holder === a ? b : a;
    // The other is refused while the holder holds the mailbox, and has stored nothing.
    await other.said((l) => l === '{"result":null}');
    expect(await stored()).toBe(50);
    expect(results(other).every((r) => r === null)).toBe(true);
    expect(leases(other, id)).toEqual([]);

    // The holder killed -9 in the middle of its sync: the other takes over once its lease lapses.
    // The time is read just before the kill: the holder's lease, renewed while it is held still
    // (40 s), lapses only after it, however long the machine takes to report the death.
    const killedAt = Date.parse(((await t.db.execute(sql`select clock_timestamp() as at`)).rows[0] as { at: string }).at);
    holder.proc.kill('SIGKILL');
    expect(await holder.exited).toBe('SIGKILL');
    await holder.killHard();
    await other.said((l) => l.startsWith('{"result"') && ((JSON.parse(l) as { result: { added: number } | null }).result?.added ?? 0) > 0);
    expect(results(other).filter((r) => r && r.added > 0)).toEqual([expect.objectContaining({ added: TOTAL - 50 })]);
    expect(await stored()).toBe(TOTAL);
    expect(await count(sql`select count(distinct message_id)::int as n from mail_messages where mailbox_id = ${id}`)).toBe(TOTAL);

    // One at a time: the holder's leases (the last one to its death) and the other's never overlap,
    // and the other first held the mailbox after the holder died.
    const held = leases(holder, id);
    // The holder died holding its last lease (never given back), every earlier one given back.
    expect(held.length).toBeGreaterThan(0);
    expect(held.at(-1)!.to).toBeNull();
    expect(held.slice(0, -1).every((h) => h.to !== null)).toBe(true);
    const mine = held.map((h) => ({ from: h.from, to: h.to ?? killedAt }));
    const theirs = leases(other, id).map((h) => ({ from: h.from, to: h.to ?? Number.POSITIVE_INFINITY }));
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs[0]!.from).toBeGreaterThanOrEqual(killedAt);
    for (const x of mine) for (const y of theirs) expect(x.to <= y.from || y.to <= x.from, JSON.stringify({ x, y })).toBe(true);
    // Again and again, nothing more.
    await other.said((l) => l === '{"result":{"added":0,"seen":0,"deleted":0,"uidValidityChanged":false}}');
    expect(await stored()).toBe(TOTAL);
  }, 240_000);

  it('a sync held still lets its lease lapse; once another holds the mailbox it stores nothing more and writes nothing on it', async () => {
    const id = await mailboxWith('Held', 120);
    const stored = () => count(sql`select count(*)::int as n from mail_messages where mailbox_id = ${id}`);
    const mailbox = async () =>
      (await t.db.execute(sql`select last_uid, last_sync_on, last_sync_error, sync_held_by from mailboxes where id = ${id}`)).rows[0] as Record<string, unknown>;

    // One sync, held after its first batch of 50 (as one hung on a store or a lock would be).
    const sync = startChild(t, 'sync', [String(id)], { CRM_PAUSE_AT: 'mail.sync.batchDone', CHILD_ENV: JSON.stringify({ MAIL_SYNC_LEASE_SECONDS: '3' }) });
    children.push(sync);
    await sync.said((l) => l === 'paused mail.sync.batchDone');
    expect(await stored()).toBe(50);
    // Alive but making no progress, it stops renewing: the lease lapses.
    await until('the held sync’s lease to lapse', async () =>
      Boolean(((await t.db.execute(sql`select sync_locked_until < clock_timestamp() as lapsed from mailboxes where id = ${id}`)).rows[0] as { lapsed: boolean }).lapsed),
    );
    // Another holder takes the mailbox (as another instance's sync would), then the held one goes on.
    await t.db.execute(sql`update mailboxes set sync_held_by = 'another#instance', sync_locked_until = now() + interval '1 hour' where id = ${id}`);
    sync.send('go');
    await sync.said((l) => l === 'done');
    expect(sync.lines).toContain('{"result":null}');
    expect(await stored()).toBe(50);
    expect(await mailbox()).toEqual({ last_uid: 50, last_sync_on: null, last_sync_error: null, sync_held_by: 'another#instance' });
  }, 120_000);

  it('a sync whose lease another holds after its last batch marks nothing expunged and writes no sync time', async () => {
    const id = await mailboxWith('Last', 10);
    const sync = startChild(t, 'sync', [String(id)], { CRM_PAUSE_AT: 'mail.sync.batchDone' });
    children.push(sync);
    await sync.said((l) => l === 'paused mail.sync.batchDone');
    expect(await count(sql`select count(*)::int as n from mail_messages where mailbox_id = ${id}`)).toBe(10);
    // A message deleted on the server meanwhile, and the mailbox handed to another holder.
    const imap = await imapOf(dovecot);
    await imap.mailboxOpen('Last');
    await imap.messageDelete((await imap.search({ header: { 'message-id': '<Last-3@example.gr>' } }, { uid: true })) || [], { uid: true });
    await imap.logout();
    await t.db.execute(sql`update mailboxes set sync_held_by = 'another#instance', sync_locked_until = now() + interval '1 hour' where id = ${id}`);
    sync.send('go');
    await sync.said((l) => l === 'done');
    expect(sync.lines).toContain('{"result":null}');
    // The expunged mark and the sync's time are the holder's to write.
    expect(await count(sql`select count(*)::int as n from mail_messages where mailbox_id = ${id} and deleted_on is not null`)).toBe(0);
    expect((await t.db.execute(sql`select last_sync_on, last_sync_error, sync_held_by from mailboxes where id = ${id}`)).rows).toEqual([
      { last_sync_on: null, last_sync_error: null, sync_held_by: 'another#instance' },
    ]);
  }, 120_000);
});
