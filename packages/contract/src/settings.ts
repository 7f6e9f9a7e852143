import { z } from 'zod';

/** GET /api/DataExport: e-mail lists. language=russian with except=false: Russian-speaking accounts; except=true: all others. */
export const ZDataExportQuery = z.object({
  language: z.enum(['russian']).default('russian'),
  except: z.enum(['true', 'false']).default('false'),
});
export type TDataExportQuery = z.infer<typeof ZDataExportQuery>;

/** POST /api/LocalizationExport (multipart, one .xlsx with columns key, en, el, ru): what changed. */
export const ZLocalizationImportAnswer = z.object({
  /** Texts that differed and were replaced. */
  changed: z.number().int(),
  /** Rows read. */
  rows: z.number().int(),
});
export type TLocalizationImportAnswer = z.infer<typeof ZLocalizationImportAnswer>;
/** The columns of the localization workbook, in order. */
export const LOCALIZATION_COLUMNS = ['key', 'en', 'el', 'ru'] as const;
/** Errors of a refused import listed at most (the rest are counted). */
export const LOCALIZATION_IMPORT_MAX_ERRORS = 50;
