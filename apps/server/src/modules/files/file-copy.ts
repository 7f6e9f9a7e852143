import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { LinkKind } from '@crm/contract';
import type { Tx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { getIncomingDir } from '../../storage/file-storage.ts';
import { writeStoredFiles } from '../../storage/pending-files.ts';
import { objectPhotosChanged } from '../objects/objects.service.ts';
import { detectFileType } from './file-types.ts';
import { PICTURE_MIMES, makePictureCopies } from './pictures.ts';
import { PHOTO_TYPE } from './files.service.ts';

/** Thrown inside `within` to undo the copy (nothing stored, nothing logged). */
export class CopyAbandoned extends Error {}

export type TCopied = { fileId: number; name: string; size: number; mime: string; type: string | null };

/**
 * Bytes the CRM already holds (a mail attachment) stored as a file of a record, as an upload of the
 * same file attached to it would be: the same size limit and type check by content, a picture's
 * copies made once; on a property a picture is one of its photos (publishing judges it again) unless
 * `picturesAsDocuments` (a mail's pictures may be ID scans: never a public photo), any other file a document; on any other record the file has no type. `within` runs in the transaction
 * that records the file (a throw undoes all). One action-log row, `logData` added to its data
 * (where the bytes came from).
 */
export async function storeRecordFile(
  app: FastifyInstance,
  actor: Actor,
  src: { read: () => Promise<NodeJS.ReadableStream | null | undefined>; userName: string; size: number },
  parent: { parentType: number; parentId: number },
  within: (tx: Tx, fileId: number) => Promise<void>,
  logData: Record<string, number> = {},
  opts: { picturesAsDocuments?: boolean } = {},
): Promise<TCopied> {
  const max = app.config.uploadMaxBytes;
  if (src.size > max) throw new AppError(413, 'files.tooLarge', { name: src.userName, max: Math.round(max / (1024 * 1024)) });
  const incoming = getIncomingDir(app.config.dataDir);
  const tmp = path.join(incoming, `copy-${randomBytes(12).toString('hex')}`);
  const stream = await src.read();
  if (!stream) throw new AppError(404, 'files.notFound');
  let copies: Awaited<ReturnType<typeof makePictureCopies>> = null;
  try {
    await fs.promises.mkdir(incoming, { recursive: true });
    await pipeline(stream, fs.createWriteStream(tmp, { flags: 'wx', mode: 0o600 }));
    const size = (await fs.promises.stat(tmp)).size;
    if (size > max) throw new AppError(413, 'files.tooLarge', { name: src.userName, max: Math.round(max / (1024 * 1024)) });
    const detected = await detectFileType(tmp, src.userName);
    if (!detected) throw new AppError(415, 'files.typeNotAllowed', { name: src.userName, count: 1 });
    if (PICTURE_MIMES.has(detected.mime)) copies = await makePictureCopies(tmp, incoming);
    const systemName = `${randomBytes(16).toString('hex')}.${detected.ext}`;
    const stem = systemName.slice(0, systemName.indexOf('.'));
    const thumbName = copies ? `${stem}-thumb.webp` : null;
    const webName = copies ? `${stem}-web.webp` : null;
    const object = parent.parentType === LinkKind.Object;
    const type = object ? (copies && !opts.picturesAsDocuments ? PHOTO_TYPE : 'document') : null;
    // Named pending before they are written, claimed by the row's commit (decisions 104, 109).
    return await writeStoredFiles(app, async (stored) => {
      await stored.put(systemName, { path: tmp });
      if (copies && thumbName && webName) {
        await stored.put(thumbName, { path: copies.thumbPath });
        await stored.put(webName, { path: copies.webPath });
      }
      return stored.transaction(async (tx) => {
        const next = await tx.execute(sql`select coalesce(max(sort_order), -1) + 1 as n from files where parent_type = ${parent.parentType} and parent_id = ${parent.parentId}`);
        const res = await tx.execute(sql`insert into files (system_name, user_name, mime, size, parent_type, parent_id, type, sort_order, created_by, width, height, thumb_name, web_name)
          values (${systemName}, ${src.userName}, ${detected.mime}, ${size}, ${parent.parentType}, ${parent.parentId}, ${type}, ${Number((next.rows[0] as { n: number }).n)}, ${actor.id},
            ${copies?.width ?? null}, ${copies?.height ?? null}, ${thumbName}, ${webName}) returning id`);
        const fileId = Number((res.rows[0] as { id: number }).id);
        await stored.claim(tx);
        await within(tx, fileId);
        if (type === PHOTO_TYPE) await objectPhotosChanged(app, tx, parent.parentId, actor, 'imagesAttached');
        await logAction(tx, actor, { action: 'Create', entity: 'File', entityId: fileId, message: src.userName, data: { systemName, mime: detected.mime, size, ...parent, type, ...logData } });
        return { fileId, name: src.userName, size, mime: detected.mime, type };
      });
    });
  } finally {
    await fs.promises.rm(tmp, { force: true }).catch(() => {});
    if (copies) {
      await fs.promises.rm(copies.thumbPath, { force: true }).catch(() => {});
      await fs.promises.rm(copies.webPath, { force: true }).catch(() => {});
    }
  }
}
