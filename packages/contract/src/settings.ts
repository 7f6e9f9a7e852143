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
export { LOCALIZATION_COLUMNS, LOCALIZATION_IMPORT_MAX_BYTES, LOCALIZATION_IMPORT_MAX_ERRORS } from './office-constants.ts';
