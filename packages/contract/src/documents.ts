import { z } from 'zod';
import { byId, listAnswer, ZRecordStamps, ZIdString, ZOk, ZPage, ZText, ZVersionString } from './common.ts';
import type { CallSchemas } from './call.ts';
import { SHOW_ALL } from './constants.ts';
import type { TFieldDescriptionOf } from './field-description.ts';
import { DOCUMENT_DESCRIPTION_MAX, DOCUMENT_NAME_MAX } from './office-constants.ts';

/**
 * The document forms library (spec 001, 2.9 and 7): a named form (contract, handover report,
 * power of attorney...) with a description and one or more files. The name is the link to its
 * first file.
 */
export const DOCUMENT_GROUPS = ['main'] as const;
export type TDocumentFieldDescription = TFieldDescriptionOf<(typeof DOCUMENT_GROUPS)[number]>;

/** The document's fields, described once (decision 009): the update's schema and the form come from them. */
export const DOCUMENT_FIELDS: readonly TDocumentFieldDescription[] = [
  { name: 'name', type: 'text', group: 'main', max: DOCUMENT_NAME_MAX, required: true },
  { name: 'description', type: 'textarea', group: 'main', max: DOCUMENT_DESCRIPTION_MAX },
];
export { DOCUMENT_DESCRIPTION_MAX, DOCUMENT_FILES_MAX, DOCUMENT_NAME_MAX } from './office-constants.ts';

export const ZDocumentFile = z.object({
  id: z.number().int(),
  systemName: z.string(),
  userName: z.string(),
  mime: z.string(),
  size: z.number().int(),
});
export type TDocumentFile = z.infer<typeof ZDocumentFile>;

export const ZDocument = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  /** Where the name leads: the first file's address (opened in a new tab), null without files. */
  link: z.string().nullable(),
  /** The first file's name. */
  file: z.string().nullable(),
  files: z.array(ZDocumentFile),
  ...ZRecordStamps,
});
export type TDocument = z.infer<typeof ZDocument>;

/** GET /api/Documents: the library, by name, a page at a time; `searchStr` finds words of the name or description. */
export const ZDocumentListQuery = z.object({
  searchStr: ZText(200).optional(),
  perPage: z.coerce.number().int().min(1).max(SHOW_ALL).default(SHOW_ALL),
  currentPage: z.coerce.number().pipe(ZPage).default(1),
});
export type TDocumentListQuery = z.infer<typeof ZDocumentListQuery>;
export const ZDocumentRow = ZDocument.omit({ createdBy: true, modifiedBy: true, createdOn: true });
export type TDocumentRow = z.infer<typeof ZDocumentRow>;
export const ZDocumentListAnswer = listAnswer(ZDocumentRow);

/**
 * POST /api/Documents/update, multipart form: the text fields below and the new files (parts named
 * `files`). Without `id` it creates the document. `filesRemoved`: ids of the document's files to
 * take off, comma-joined.
 */
export const ZDocumentUpdateFields = z.object({
  id: ZIdString.optional(),
  version: ZVersionString,
  name: z.string().trim().min(1).max(DOCUMENT_NAME_MAX),
  description: z.string().max(DOCUMENT_DESCRIPTION_MAX).optional().default(''),
  filesRemoved: z
    .string()
    .max(2000)
    .regex(/^\s*(\d{1,9}\s*(,\s*\d{1,9}\s*)*)?$/, { message: 'validation.invalid' })
    .optional()
    .default(''),
});
export type TDocumentUpdateFields = z.infer<typeof ZDocumentUpdateFields>;

/**
 * The documents' calls and their schemas (decision 057); their methods and paths: `documents.resource.ts`.
 * The update is a multipart form (its fields and new files together), read by the server part by part.
 */
export const DOCUMENT_API = {
  list: { query: ZDocumentListQuery, answer: ZDocumentListAnswer },
  edit: byId(ZDocument),
  update: { answer: ZDocument },
  remove: byId(ZOk),
} satisfies Record<string, CallSchemas>;
