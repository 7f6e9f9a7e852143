import { z } from 'zod';
import { ZXlsxWorkbook } from './common.ts';
import type { CallSchemas } from './call.ts';

/**
 * Bringing owners, properties, mandates, leads (clients' requests) and deals in from a spreadsheet (decisions 052, 094): upload a
 * file, map its columns to fields, preview (nothing stored), import (one transaction, once per upload).
 */
export const IMPORT_KINDS = ['owners', 'objects', 'mandates', 'leads', 'deals'] as const;
export type TImportKind = (typeof IMPORT_KINDS)[number];
/** What to do with a row whose person is already in the CRM (same phone or e-mail). */
export const IMPORT_DUPLICATE_CHOICES = ['link', 'skip'] as const;
export type TImportDuplicateChoice = (typeof IMPORT_DUPLICATE_CHOICES)[number];
/** Rows one file may hold (past it the upload is refused). */
export const IMPORT_ROWS_MAX = 20000;
/** Rows one file of deals may hold: each deal is made by the deal form's own save (decision 052). */
export const IMPORT_DEAL_ROWS_MAX = 2000;
/** Columns one file may hold. */
export const IMPORT_COLUMNS_MAX = 200;
/** Non-empty cells one file may hold: 20,000 rows of 50 filled columns (a sheet is rarely half as full). */
export const IMPORT_CELLS_MAX = 1_000_000;

const ZToken = z.string().regex(/^[A-Za-z0-9_-]{20,64}$/);

/** One field a column may be mapped to: its key (owner fields of a property row start with "owner."), its label, required or not. */
export const ZImportField = z.object({ key: z.string(), label: z.string(), required: z.boolean() });
export type TImportField = z.infer<typeof ZImportField>;

/** POST /api/import/upload (multipart: `kind` then one file): the file read, its headers and the proposed mapping. */
export const ZImportUploadAnswer = z.object({
  token: z.string(),
  kind: z.enum(IMPORT_KINDS),
  fileName: z.string(),
  headers: z.array(z.string()),
  /** The sheet's row the headers were found on: the first of its first rows where enough cells name fields (a title may come first). */
  headerRow: z.number().int(),
  /** Per column, the field proposed for it ('' = not imported). */
  mapping: z.array(z.string()),
  fields: z.array(ZImportField),
  rowCount: z.number().int(),
});
export type TImportUploadAnswer = z.infer<typeof ZImportUploadAnswer>;

export const ZImportRequest = z.object({
  token: ZToken,
  /** Per column of the file, the field it fills ('' = left out). */
  mapping: z.array(z.string().max(100)).max(IMPORT_COLUMNS_MAX),
  duplicates: z.enum(IMPORT_DUPLICATE_CHOICES),
});
export type TImportRequest = z.infer<typeof ZImportRequest>;

export const ZImportRunRequest = ZImportRequest.extend({
  /** Leave out the rows with errors instead of refusing the whole import. */
  skipErrors: z.boolean(),
});
export type TImportRunRequest = z.infer<typeof ZImportRunRequest>;

/** One row of the preview: its number in the file, the values as stored (shown as text), the errors per field, the account it matched. */
export const ZImportPreviewRow = z.object({
  row: z.number().int(),
  values: z.record(z.string(), z.string()),
  errors: z.record(z.string(), z.string()),
  /** The account already in the CRM with the same phone or e-mail (owners; for properties, the owner's); for mandates, the same mandate already stored; for leads and deals, the same one stored. */
  existing: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type TImportPreviewRow = z.infer<typeof ZImportPreviewRow>;

export const ZImportCounts = z.object({
  /** Records that would be / were created: owners (new accounts) and properties. */
  owners: z.number().int(),
  objects: z.number().int(),
  /** Mandates that would be / were created (decision 094). */
  mandates: z.number().int(),
  /** Leads that would be / were created, and the new client accounts made for them. */
  leads: z.number().int(),
  /** Deals that would be / were created (their new clients counted in `clients`). */
  deals: z.number().int(),
  clients: z.number().int(),
  /** Rows whose person is already in the CRM and was linked (owners: marked owner; properties: the existing owner). */
  linked: z.number().int(),
  /** Rows left out: duplicates skipped (a mandate or a lead already stored always), rows with errors skipped. */
  skipped: z.number().int(),
  /** Rows with at least one error. */
  withErrors: z.number().int(),
});
export type TImportCounts = z.infer<typeof ZImportCounts>;

export const ZImportPreviewAnswer = z.object({
  rows: z.array(ZImportPreviewRow),
  counts: ZImportCounts,
  /** Field keys that are required and not mapped to any column. */
  missing: z.array(z.string()),
  /** The sheet's row the headers were read from (the rows are numbered as the sheet numbers them). */
  headerRow: z.number().int(),
  /** When and by whom this very file (same content) was imported before, if it was. */
  importedBefore: z.object({ on: z.string(), by: z.string() }).nullable(),
});
export type TImportPreviewAnswer = z.infer<typeof ZImportPreviewAnswer>;

export const ZImportRunAnswer = z.object({
  id: z.number().int(),
  counts: ZImportCounts,
});
export type TImportRunAnswer = z.infer<typeof ZImportRunAnswer>;

export const ZImportTemplateQuery = z.object({ kind: z.enum(IMPORT_KINDS) });

/**
 * The import's calls and their schemas (decision 057); their methods and paths: `imports.resource.ts`.
 * The upload is a multipart form (one file), read by the server part by part.
 */
export const IMPORT_API = {
  upload: { answer: ZImportUploadAnswer },
  preview: { body: ZImportRequest, answer: ZImportPreviewAnswer },
  run: { body: ZImportRunRequest, answer: ZImportRunAnswer },
  template: { query: ZImportTemplateQuery, answer: ZXlsxWorkbook },
} satisfies Record<string, CallSchemas>;
