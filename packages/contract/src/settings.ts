import { z } from 'zod';
import { ZSelectOption, isStorableText, ZVersion, ZXlsxWorkbook } from './common.ts';
import { ZActionLogAnswer, ZActionLogSearch } from './action-log.ts';
import type { CallSchemas } from './call.ts';
import { SITE_EMAIL, isAgencyPhone, isFeeNumber, SALE_FEE_MAX, RENT_FEE_MAX } from './site-settings.ts';
import { isGreekTaxNumber, isRegistryNumber } from './account-fields.ts';
import { CULTURES, MAIL_KINDS } from './constants.ts';

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

export { SITE_EMAIL, isAgencyPhone, phoneHref, isFeeNumber, SALE_FEE_MAX, RENT_FEE_MAX } from './site-settings.ts';

/** One line of text (the server runs spaces together and trims it; an empty text is no value). */
const oneLine = (max: number) => z.string().max(max).refine(isStorableText, { message: 'validation.badCharacters' });

/** GET /api/SiteSettings: the agency's details the public site shows (decision 022); null when not set. */
export const ZSiteSettings = z.object({
  /** The agency's name on the public site; null: the site name text (publishing.site.name) of each language. */
  name: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  address: z.string().nullable(),
  /** The source (a source account) given to the leads the public site's enquiry form makes; null: none. */
  enquirySourceId: z.number().int().nullable(),
  /** The viewing sheet's (decision 044): the registry number (Αρ. Μητρώου Μεσιτών / ΓΕΜΗ) and the ΑΦΜ, 9 digits. */
  licence: z.string().nullable(),
  taxNumber: z.string().nullable(),
  /** The fee on a sale, % of the price, and on a letting, months of rent; both before VAT. */
  saleFeePercent: z.number().nullable(),
  rentFeeMonths: z.number().nullable(),
  version: z.number().int(),
});
export type TSiteSettings = z.infer<typeof ZSiteSettings>;
/** GET /api/SiteSettings: the settings, and the source accounts to choose the enquiries' source from. */
export const ZSiteSettingsAnswer = ZSiteSettings.extend({ sourceList: z.array(ZSelectOption) });
export type TSiteSettingsAnswer = z.infer<typeof ZSiteSettingsAnswer>;

/** POST /api/SiteSettings: all the details at once, with the version they were based on; an empty text clears one. */
export const ZSiteSettingsUpdate = z.object({
  name: oneLine(100).nullable().default(null),
  phone: oneLine(40)
    .refine((s) => s.trim() === '' || isAgencyPhone(s.trim()), { message: 'validation.sitePhone' })
    .nullable()
    .default(null),
  email: oneLine(200)
    .refine((s) => s.trim() === '' || SITE_EMAIL.test(s.trim()), { message: 'validation.email' })
    .nullable()
    .default(null),
  address: oneLine(200).nullable().default(null),
  enquirySourceId: z.number().int().min(1).max(2147483647).nullable().default(null),
  licence: oneLine(100)
    .refine((s) => s.trim() === '' || isRegistryNumber(s), { message: 'validation.agencyLicence' })
    .nullable()
    .default(null),
  taxNumber: oneLine(20)
    .refine((s) => s.trim() === '' || isGreekTaxNumber(s.trim()), { message: 'validation.agencyTaxNumber' })
    .nullable()
    .default(null),
  saleFeePercent: z
    .number()
    .refine((n) => isFeeNumber(n, SALE_FEE_MAX), { message: 'validation.saleFee' })
    .nullable()
    .default(null),
  rentFeeMonths: z
    .number()
    .refine((n) => isFeeNumber(n, RENT_FEE_MAX), { message: 'validation.rentFee' })
    .nullable()
    .default(null),
  version: ZVersion,
});
export type TSiteSettingsUpdate = z.infer<typeof ZSiteSettingsUpdate>;

/**
 * The settings' calls and their schemas (decision 057), the action log's among them; their methods
 * and paths: `settings.resource.ts`.
 * The texts' import is a multipart form (one .xlsx), read by the server part by part.
 */
/** GET /api/SiteSettings/mailPreview: one kind of mail in one language, written with made-up details. */
export const ZMailPreviewQuery = z.object({ kind: z.enum(MAIL_KINDS), language: z.enum(CULTURES) });
export const ZMailPreview = z.object({ fromName: z.string(), subject: z.string(), html: z.string(), text: z.string() });
export type TMailPreview = z.infer<typeof ZMailPreview>;

export const SETTINGS_API = {
  localizationExport: { answer: ZXlsxWorkbook },
  localizationImport: { answer: ZLocalizationImportAnswer },
  dataExport: { query: ZDataExportQuery, answer: ZXlsxWorkbook },
  actionLog: { body: ZActionLogSearch, answer: ZActionLogAnswer },
  siteSettings: { answer: ZSiteSettingsAnswer },
  updateSiteSettings: { body: ZSiteSettingsUpdate, answer: ZSiteSettings },
  mailPreview: { query: ZMailPreviewQuery, answer: ZMailPreview },
} satisfies Record<string, CallSchemas>;
