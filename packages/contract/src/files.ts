import { z } from 'zod';
import { ZId, ZIdString } from './common.ts';

/** One stored file as answered by the upload (POST /api/files). */
export const ZFileUploaded = z.object({
  id: z.number().int(),
  /** Random stored name; the key of GET/DELETE /api/files/{systemName}. */
  systemName: z.string(),
  /** The name the user gave the file (shown and used for downloads). */
  userName: z.string(),
  /** Type detected from the content, not from the client's claim or the extension. */
  mime: z.string(),
  size: z.number().int(),
});
export type TFileUploaded = z.infer<typeof ZFileUploaded>;
export const ZFileUploadAnswer = z.array(ZFileUploaded);
export type TFileUploadAnswer = z.infer<typeof ZFileUploadAnswer>;

/** A file of a record (GET /api/files?parentType=&parentId=). */
export const ZFileItem = ZFileUploaded.extend({
  type: z.string().nullable(),
  sortOrder: z.number().int(),
  createdOn: z.string(),
  createdBy: z.string().nullable(),
});
export type TFileItem = z.infer<typeof ZFileItem>;

/** Link kinds that can own files (LinkKind without Undefined). */
const ZParentKind = z.coerce.number().int().min(1).max(7);

export const ZFileListQuery = z.object({ parentType: ZParentKind, parentId: ZIdString });
export type TFileListQuery = z.infer<typeof ZFileListQuery>;
export const ZFileListAnswer = z.object({ items: z.array(ZFileItem) });
export type TFileListAnswer = z.infer<typeof ZFileListAnswer>;

/**
 * POST /api/files/setParent: attaches uploaded files to a record. `fileNames` are system names or
 * ids, as a list or comma-joined (the `filesNew` form of the record dtos).
 */
export const ZFileSetParent = z.object({
  entityType: ZParentKind,
  id: ZIdString,
  fileNames: z.union([z.array(z.union([z.string().trim().min(1).max(100), ZId])).max(200), z.string().max(5000)]),
  type: z.string().trim().max(50).nullable().optional(),
});
export type TFileSetParent = z.infer<typeof ZFileSetParent>;

/** POST /api/files/reorder: the files of one record in their new order. */
export const ZFileReorder = z.object({ ids: z.array(ZIdString).min(1).max(1000) });
export type TFileReorder = z.infer<typeof ZFileReorder>;

/** A system name (random hex plus an extension) or a numeric id. */
export const ZFileNameParam = z.object({ systemName: z.string().min(1).max(100) });
