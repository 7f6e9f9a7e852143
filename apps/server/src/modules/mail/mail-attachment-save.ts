import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { LinkKind, type TMailAttachmentSaved, type ZMailAttachmentSave } from '@crm/contract';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
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

/**
 * POST /api/mail/attachment/{id}/save: an attachment of a message the reader sees, copied into the
 * files of the account or property it is read on (decision 089): as an upload would be (size limit,
 * type by content, a property's picture one of its photos), logged. Once per record: a second click,
 * or two at once, finds the file saved and says so; a file deleted since may be saved again.
 */
export async function saveAttachment(app: FastifyInstance, caller: { user: SessionUser; actor: Actor }, id: number, b: z.output<typeof ZMailAttachmentSave>): Promise<TMailAttachmentSaved> {
  const res = await app.db.execute(sql`select a.system_name, a.user_name, a.size from mail_attachments a
    join mail_messages m on m.id = a.message_id join mailboxes mb on mb.id = m.mailbox_id where a.id = ${id} and ${visibleTo(caller.user)}`);
  const a = res.rows[0] as { system_name: string; user_name: string; size: number } | undefined;
  if (!a) throw notFound('mailbox.messageNotFound');
  const parentType = b.accountId != null ? LinkKind.Account : LinkKind.Object;
  const parentId = (b.accountId ?? b.objectId)!;
  const exists = await app.db.execute(
    parentType === LinkKind.Account ? sql`select 1 from accounts where id = ${parentId} and erased_on is null` : sql`select 1 from objects where id = ${parentId}`,
  );
  if (!exists.rows.length) throw notFound();
  const before = await savedBefore(app.db, id, parentType, parentId);
  if (before) return { ...before, alreadySaved: true };
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
    );
    return { fileId: copied.fileId, name: copied.name, alreadySaved: false };
  } catch (e) {
    if (e instanceof CopyAbandoned && raced) return { ...raced, alreadySaved: true };
    throw e;
  }
}
