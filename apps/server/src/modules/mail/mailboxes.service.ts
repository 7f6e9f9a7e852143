import type { FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import type { TMailbox, TMailboxListAnswer, TMailboxSave, TMailboxTestAnswer } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { accounts, mailboxes, users } from '../../db/schema/index.ts';
import { AppError, conflict, fieldError, notFound, requireVersion } from '../../lib/errors.ts';
import { logAction } from '../../lib/audit.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { openSecret, sealSecret, secretKey } from '../../lib/secret-box.ts';
import { noteFilesToRemove, removeNotedFiles } from '../../storage/pending-files.ts';
import type { Caller, SessionUser } from '../../plugins/auth.ts';
import { testImap, testSmtp } from './mail-connection.ts';
import { MAIL_SYNC_ONE_JOB } from './mail-sync.ts';

const ENTITY = 'Mailbox';
type Row = typeof mailboxes.$inferSelect;

export const isOfficeAdmin = (u: SessionUser) => u.roles.includes('admin') && u.branchId === null;

const ownerName = sql<string | null>`(select coalesce(a.display_name, u.username) from users u left join accounts a on a.id = u.account_id where u.id = mailboxes.owner_id)`;
// Named in full: drizzle writes a lone table's columns unqualified, and a bare "id" inside the subquery is the message's.
const messageCount = sql<number>`(select count(*)::int from mail_messages mm where mm.mailbox_id = mailboxes.id and mm.deleted_on is null)`;

/** A mailbox as answered: its passwords never, only whether each is set. */
function answerOf(app: FastifyInstance, r: { m: Row; ownerName: string | null; messages: number }): TMailbox {
  const { m } = r;
  return {
    id: m.id,
    name: m.name,
    address: m.address,
    ownerId: m.ownerId,
    ownerName: r.ownerName,
    imapHost: m.imapHost,
    imapPort: m.imapPort,
    imapTls: m.imapTls,
    imapUser: m.imapUser,
    imapFolder: m.imapFolder,
    imapPasswordSet: !!m.imapPassword,
    smtpHost: m.smtpHost,
    smtpPort: m.smtpPort,
    smtpTls: m.smtpTls,
    smtpUser: m.smtpUser,
    smtpPasswordSet: !!m.smtpPassword,
    syncMonths: m.syncMonths,
    active: m.active,
    lastSyncOn: toLocalDateTime(m.lastSyncOn, app.config.timeZone),
    lastSyncError: (m.lastSyncError as TMailbox['lastSyncError']) ?? null,
    messages: r.messages,
    signature: m.signature,
    version: m.version,
  };
}

async function readMailbox(app: FastifyInstance, db: Db | Tx, id: number): Promise<TMailbox | undefined> {
  const [r] = await db.select({ m: mailboxes, ownerName, messages: messageCount }).from(mailboxes).where(eq(mailboxes.id, id));
  return r ? answerOf(app, r) : undefined;
}

/** GET /api/mailboxes: an office admin sees every mailbox (and who may own one); anyone else the shared ones and their own. */
export async function listMailboxes(app: FastifyInstance, user: SessionUser): Promise<TMailboxListAnswer> {
  const admin = isOfficeAdmin(user);
  const rows = await app.db
    .select({ m: mailboxes, ownerName, messages: messageCount })
    .from(mailboxes)
    .where(admin ? undefined : sql`${mailboxes.ownerId} is null or ${mailboxes.ownerId} = ${user.id}`)
    .orderBy(sql`${mailboxes.ownerId} is not null`, mailboxes.name, mailboxes.id);
  const owners = admin
    ? await app.db
        .select({ id: users.id, name: sql<string>`coalesce(${accounts.displayName}, ${users.username})` })
        .from(users)
        .leftJoin(accounts, eq(accounts.id, users.accountId))
        .where(sql`not ${users.disabled} and ${users.roles} && array['admin','employee']::text[]`)
        .orderBy(sql`coalesce(${accounts.displayName}, ${users.username})`)
    : [];
  return { items: rows.map((r) => answerOf(app, r)), owners, canStore: secretKey(app.config) !== null };
}

function requireKey(app: FastifyInstance): Buffer {
  const key = secretKey(app.config);
  if (!key) throw new AppError(409, 'mailbox.noSecretKey');
  return key;
}

const smtpOf = (b: TMailboxSave) => ({ smtpHost: b.smtpHost ?? null, smtpPort: b.smtpHost ? (b.smtpPort ?? null) : null, smtpTls: b.smtpTls, smtpUser: b.smtpHost ? (b.smtpUser ?? null) : null });
const AUDITED = ['name', 'address', 'ownerId', 'imapHost', 'imapPort', 'imapTls', 'imapUser', 'imapFolder', 'smtpHost', 'smtpPort', 'smtpTls', 'smtpUser', 'syncMonths', 'active', 'signature'] as const;

/**
 * POST /api/mailboxes/update: a new mailbox (no id) or a change (version guarded), its passwords
 * sealed; an empty password keeps the stored one. The action log says a password changed, never
 * what it is. A saved active mailbox is synced at once (a job).
 */
export async function saveMailbox(app: FastifyInstance, caller: Caller, b: TMailboxSave): Promise<TMailbox> {
  const key = requireKey(app);
  if (b.smtpHost && !b.smtpPort) throw fieldError('smtpPort', 'validation.required');
  if (b.ownerId != null) {
    const [u] = await app.db.select({ id: users.id }).from(users).where(eq(users.id, b.ownerId));
    if (!u) throw fieldError('ownerId', 'validation.invalid');
  }
  const values = {
    name: b.name,
    address: b.address,
    ownerId: b.ownerId,
    imapHost: b.imapHost,
    imapPort: b.imapPort,
    imapTls: b.imapTls,
    imapUser: b.imapUser,
    imapFolder: b.imapFolder,
    ...smtpOf(b),
    syncMonths: b.syncMonths,
    active: b.active,
    signature: b.signature.replace(/\r\n?/g, '\n').trim(),
  };
  return app.db.transaction(async (tx) => {
    let id = b.id ?? null;
    const changes: Record<string, unknown> = {};
    if (id == null) {
      if (!b.imapPassword) throw fieldError('imapPassword', 'validation.required');
      const [row] = await tx
        .insert(mailboxes)
        .values({
          ...values,
          imapPassword: sealSecret(key, b.imapPassword),
          smtpPassword: b.smtpHost && b.smtpPassword ? sealSecret(key, b.smtpPassword) : null,
          createdBy: caller.user.id,
          modifiedBy: caller.user.id,
        })
        .returning({ id: mailboxes.id });
      id = row!.id;
      for (const k of AUDITED) changes[k] = values[k];
      changes.imapPassword = 'set';
      if (b.smtpHost && b.smtpPassword) changes.smtpPassword = 'set';
    } else {
      requireVersion(b.version);
      const [current] = await tx.select().from(mailboxes).where(eq(mailboxes.id, id)).for('update');
      if (!current) throw notFound('mailbox.notFound');
      if (current.version !== b.version) throw conflict(await readMailbox(app, tx, id));
      for (const k of AUDITED) if (current[k] !== values[k]) changes[k] = values[k];
      const set: Partial<Row> = { ...values };
      if (b.imapPassword) {
        set.imapPassword = sealSecret(key, b.imapPassword);
        changes.imapPassword = 'changed';
      }
      if (!b.smtpHost) set.smtpPassword = null;
      else if (b.smtpPassword) {
        set.smtpPassword = sealSecret(key, b.smtpPassword);
        changes.smtpPassword = 'changed';
      }
      if (Object.keys(changes).length) {
        // A new server or folder is another numbering of UIDs: the next sync starts over (no duplicates: Message-ID).
        if (changes.imapHost !== undefined || changes.imapUser !== undefined || changes.imapFolder !== undefined) Object.assign(set, { uidValidity: null, lastUid: 0 });
        await tx
          .update(mailboxes)
          .set({ ...set, version: current.version + 1, modifiedOn: new Date(), modifiedBy: caller.user.id })
          .where(eq(mailboxes.id, id));
      }
    }
    if (b.id == null || Object.keys(changes).length) {
      await logAction(tx, caller.actor, { action: b.id == null ? 'Create' : 'Update', entity: ENTITY, entityId: id, message: `${b.name} <${b.address}>`, data: changes });
    }
    if (b.active) await app.jobs.enqueue(MAIL_SYNC_ONE_JOB, { mailboxId: id }, { tx, singletonKey: `mailbox:${id}` });
    return (await readMailbox(app, tx, id))!;
  });
}

/** DELETE /api/mailboxes/{id}: the mailbox and the mail synced from it (its attachments' files go after). */
export async function deleteMailbox(app: FastifyInstance, caller: Caller, id: number): Promise<void> {
  const names = await app.db.transaction(async (tx) => {
    const [current] = await tx.select().from(mailboxes).where(eq(mailboxes.id, id)).for('update');
    if (!current) throw notFound('mailbox.notFound');
    const files = await tx.execute(sql`select a.system_name from mail_attachments a join mail_messages m on m.id = a.message_id where m.mailbox_id = ${id}`);
    const n = await tx.execute(sql`select count(*)::int as n from mail_messages where mailbox_id = ${id}`);
    await tx.delete(mailboxes).where(eq(mailboxes.id, id));
    const names = (files.rows as { system_name: string }[]).map((r) => r.system_name);
    await noteFilesToRemove(tx, names);
    await logAction(tx, caller.actor, { action: 'Delete', entity: ENTITY, entityId: id, message: `${current.name} <${current.address}>`, data: { name: current.name, messages: (n.rows[0] as { n: number }).n } });
    return names;
  });
  await removeNotedFiles(app, names);
}

/**
 * POST /api/mailboxes/test: the form's settings tried step by step (host, TLS, sign-in, folder; then
 * SMTP's), the stored passwords standing in for those not typed. Nothing is saved.
 */
export async function testMailbox(app: FastifyInstance, b: TMailboxSave, tr: (key: string) => string): Promise<TMailboxTestAnswer> {
  let imapPassword = b.imapPassword || '';
  let smtpPassword = b.smtpPassword || '';
  if (b.id != null && (!imapPassword || !smtpPassword)) {
    const [m] = await app.db.select().from(mailboxes).where(eq(mailboxes.id, b.id));
    if (!m) throw notFound('mailbox.notFound');
    const key = requireKey(app);
    if (!imapPassword) imapPassword = openSecret(key, m.imapPassword);
    if (!smtpPassword && m.smtpPassword) smtpPassword = openSecret(key, m.smtpPassword);
  }
  const say = (r: { ok: boolean; step: TMailboxTestAnswer['imap']['step']; message: string | null }) => ({ ok: r.ok, step: r.step, message: r.step ? tr(`mailbox.step.${r.step}`) : null, detail: r.message });
  const imap = say(await testImap({ host: b.imapHost, port: b.imapPort, tls: b.imapTls, user: b.imapUser, password: imapPassword, folder: b.imapFolder }));
  const smtp = b.smtpHost && b.smtpPort ? say(await testSmtp({ host: b.smtpHost, port: b.smtpPort, tls: b.smtpTls, user: b.smtpUser ?? null, password: smtpPassword || null })) : null;
  return { ok: imap.ok && (smtp?.ok ?? true), imap, smtp };
}

/** POST /api/mailboxes/{id}/sync: a sync of the mailbox queued now. */
export async function queueSync(app: FastifyInstance, id: number): Promise<void> {
  const [m] = await app.db.select({ id: mailboxes.id }).from(mailboxes).where(eq(mailboxes.id, id));
  if (!m) throw notFound('mailbox.notFound');
  await app.jobs.enqueue(MAIL_SYNC_ONE_JOB, { mailboxId: id }, { singletonKey: `mailbox:${id}` });
}
