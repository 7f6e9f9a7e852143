import { z } from 'zod';
import { ZId, ZIdString, ZOk } from './common.ts';
import type { CallSchemas } from './call.ts';

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
  /** A picture's pixel size, upright (null when not a picture or unreadable). */
  width: z.number().int().nullable().optional(),
  height: z.number().int().nullable().optional(),
  /** A thumbnail and a screen-size copy exist: GET /api/files/{id}?size=thumb or size=web. */
  preview: z.boolean().optional(),
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

/** Link kinds that can own files through these calls (LinkKind without Undefined; the forms library's own calls keep its files; 9 a mandate's signed documents). */
const ZParentKind = z.coerce.number().int().min(1).max(9).refine((n) => n !== 8, { message: 'validation.choice' });

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
/** POST /api/files/reorder: the file ids in their new order, as the spec sends them (a plain list) or as `{ ids }`. */
const ZFileIds = z.array(ZIdString).min(1).max(1000);
export const ZFileReorder = z.union([z.object({ ids: ZFileIds }), ZFileIds.transform((ids) => ({ ids }))]);
export type TFileReorder = z.output<typeof ZFileReorder>;

/** A system name (random hex plus an extension) or a numeric id. */
export const ZFileNameParam = z.object({ systemName: z.string().min(1).max(100) });
/**
 * GET /api/files/{systemName}/{name}: the same file, its own name as the address's last part, so a
 * tab opened on it and a picture's or a PDF viewer's "Save as" take that name (the Content-
 * Disposition names it too). The name is not read: the system name says which file.
 */
export const ZFileNamedParam = ZFileNameParam.extend({ name: z.string().min(1).max(300) });

/**
 * GET /api/files/{systemName}: which copy of a picture. `thumb` (480 px wide) for lists and strips,
 * `web` (at most 1600 px) for the carousel; a file without copies answers its original.
 */
export const ZFileGetQuery = z.object({ size: z.enum(['original', 'thumb', 'web']).default('original') });
export type TFileGetQuery = z.infer<typeof ZFileGetQuery>;

/** POST /api/files/setParent: the record's files, and the ids of those just attached. */
export const ZFileSetParentAnswer = ZFileListAnswer.extend({ attached: z.array(z.number().int()) });

/**
 * The files' calls and their schemas (decision 057); their methods and paths: `files.resource.ts`.
 * The upload is a multipart form (field `files`), read by the server part by part; a file is
 * answered as itself.
 */
export const FILE_API = {
  upload: { answer: ZFileUploadAnswer },
  list: { query: ZFileListQuery, answer: ZFileListAnswer },
  get: { params: ZFileNameParam, query: ZFileGetQuery },
  getNamed: { params: ZFileNamedParam, query: ZFileGetQuery },
  remove: { params: ZFileNameParam, answer: ZOk },
  setParent: { body: ZFileSetParent, answer: ZFileSetParentAnswer },
  reorder: { body: ZFileReorder, answer: ZFileListAnswer },
} satisfies Record<string, CallSchemas>;
