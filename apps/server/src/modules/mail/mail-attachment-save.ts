import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { DEAL_RELATION, LinkKind, formatReferenceNumber, type TMailAttachmentSaved, type ZMailAttachmentSave } from '@crm/contract';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { Actor } from '../../lib/audit.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { CopyAbandoned, storeRecordFile } from '../files/file-copy.ts';
import { visibleTo } from './mail.service.ts';

type Found = { fileId: number; name: string };
async function savedBefore(db: Db | Tx, attachmentId: number, parentType: number, parentId: number): Promise<Found | undefined> {
  const res = await db.execute(sql`select f.id as "fileId", f.user_name as name from mail_attachment_files l join files f on f.id = l.file_id
    where l.attachment_id = ${attachmentId} and l.parent_type = ${parentType} and l.parent_id = ${parentId}`);
  const r = res.rows[0] as Found | undefined;
  return r ? { fileId: Number(r.fileId), name: r.name } : undefined;
}

type Target = { parentType: number; parentId: number; name: string; from: Record<string, number> };
type Row = { id: number | null; name: string | null; ref: number | null; gone?: boolean };
const refOf = (r: Row) => (r.ref != null ? `#${formatReferenceNumber(r.ref)}` : (r.name ?? ''));

/**
 * Whose files an attachment read on a record goes to (decision 095): an account's or a property's
 * own; a lead's client's (a lead has no files: the client's record is where its papers are looked
 * for); a deal's property's (a deal has no files area; its signed offer is kept apart). A lead
 * without a client or a deal without a property is told so (422), nothing stored.
 */
async function targetOf(db: Db, b: z.output<typeof ZMailAttachmentSave>): Promise<Target> {
  const one = async (q: ReturnType<typeof sql>) => (await db.execute(q)).rows[0] as Row | undefined;
  if (b.accountId != null) {
    const r = await one(sql`select id, display_name as name, null as ref from accounts where id = ${b.accountId} and erased_on is null`);
    if (!r) throw notFound();
    return { parentType: LinkKind.Account, parentId: b.accountId, name: r.name ?? '', from: {} };
  }
  if (b.objectId != null) {
    const r = await one(sql`select id, title as name, reference_number as ref from objects where id = ${b.objectId}`);
    if (!r) throw notFound();
    return { parentType: LinkKind.Object, parentId: b.objectId, name: refOf(r), from: {} };
  }
  if (b.leadId != null) {
    const r = await one(sql`select a.id, a.display_name as name, null as ref, a.erased_on is not null as gone from leads l left join accounts a on a.id = l.account_id where l.id = ${b.leadId}`);
    if (!r) throw notFound();
    if (r.id == null) throw new AppError(422, 'mailbox.attachment.leadNoClient');
    if (r.gone) throw new AppError(422, 'mailbox.attachment.leadClientErased');
    return { parentType: LinkKind.Account, parentId: Number(r.id), name: r.name ?? '', from: { leadId: b.leadId } };
  }
  const r = await one(sql`select o.id, o.title as name, o.reference_number as ref from deals d left join objects o on o.id = d.object_id where d.id = ${b.dealId!}`);
  if (!r) throw notFound();
  if (r.id == null) throw new AppError(422, 'mailbox.attachment.dealNoProperty');
  return { parentType: LinkKind.Object, parentId: Number(r.id), name: refOf(r), from: { dealId: b.dealId! } };
}

/**
 * The message is in the thread of the record it is saved from: the same links the record's mail
 * panel reads (a lead's mail_message_leads; a deal's sellers' and buyers' and its property's).
 */
async function inThread(db: Db, messageId: number, b: z.output<typeof ZMailAttachmentSave>): Promise<boolean> {
  const q =
    b.accountId != null
      ? sql`select 1 from mail_message_accounts where message_id = ${messageId} and account_id = ${b.accountId}`
      : b.objectId != null
        ? sql`select 1 from mail_message_objects where message_id = ${messageId} and object_id = ${b.objectId}`
        : b.leadId != null
          ? sql`select 1 from mail_message_leads where message_id = ${messageId} and lead_id = ${b.leadId}`
          : sql`select 1 from deal_parties p join mail_message_accounts l on l.account_id = p.account_id and l.message_id = ${messageId}
              where p.deal_id = ${b.dealId!} and p.relation in (${DEAL_RELATION.seller}, ${DEAL_RELATION.buyer})
            union all select 1 from deals d join mail_message_objects l on l.object_id = d.object_id and l.message_id = ${messageId} where d.id = ${b.dealId!}`;
  return (await db.execute(sql`select exists (${q}) as ok`)).rows[0]!.ok === true;
}

/**
 * POST /api/mail/attachment/{id}/save: an attachment of a message the reader sees, copied into the
 * files of the account or property it is read on (decision 089), or, read on a lead or a deal, of
 * the lead's client or the deal's property (decision 095): as an upload would be (size limit, type
 * by content; a picture on a property is one of its documents, never a photo: a deal's mail carries
 * ID scans), logged with the message and the lead or
 * deal it was saved from. Once per record: a second click, or two at once, or the same attachment
 * saved from the client's own view, finds the file saved and says so; a file deleted since may be
 * saved again.
 */
export async function saveAttachment(app: FastifyInstance, caller: { user: SessionUser; actor: Actor }, id: number, b: z.output<typeof ZMailAttachmentSave>): Promise<TMailAttachmentSaved> {
  const res = await app.db.execute(sql`select a.system_name, a.user_name, a.size, a.message_id from mail_attachments a
    join mail_messages m on m.id = a.message_id join mailboxes mb on mb.id = m.mailbox_id where a.id = ${id} and m.deleted_on is null and ${visibleTo(caller.user)}`);
  const a = res.rows[0] as { system_name: string; user_name: string; size: number; message_id: number } | undefined;
  if (!a) throw notFound('mailbox.messageNotFound');
  // Only a message of the record's own thread: not any message the reader sees, filed under any record.
  if (!(await inThread(app.db, Number(a.message_id), b))) throw notFound('mailbox.messageNotFound');
  const target = await targetOf(app.db, b);
  const { parentType, parentId } = target;
  const savedTo = { accountId: parentType === LinkKind.Account ? parentId : null, objectId: parentType === LinkKind.Object ? parentId : null, name: target.name };
  const before = await savedBefore(app.db, id, parentType, parentId);
  if (before) return { ...before, alreadySaved: true, savedTo };
  let raced: Found | undefined;
  try {
    const copied = await storeRecordFile(
      app,
      caller.actor,
      { read: () => getFileStorage(app.config.dataDir).get(a.system_name), userName: a.user_name, size: Number(a.size) },
      { parentType, parentId },
      async (tx, fileId) => {
        // One save of an attachment to a record at a time: the second of two clicks finds the first's file.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('mail_attachment_files'), ${id})`);
        raced = await savedBefore(tx, id, parentType, parentId);
        if (raced) throw new CopyAbandoned();
        await tx.execute(sql`insert into mail_attachment_files (attachment_id, parent_type, parent_id, file_id) values (${id}, ${parentType}, ${parentId}, ${fileId})`);
      },
      { mailMessageId: Number(a.message_id), ...target.from },
      { picturesAsDocuments: true },
    );
    return { fileId: copied.fileId, name: copied.name, alreadySaved: false, savedTo };
  } catch (e) {
    if (e instanceof CopyAbandoned && raced) return { ...raced, alreadySaved: true, savedTo };
    throw e;
  }
}
