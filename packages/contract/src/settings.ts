import { z } from 'zod';
import { ZSelectOption, isStorableText, ZVersion, ZXlsxWorkbook } from './common.ts';
import { ZActionLogAnswer, ZActionLogSearch } from './action-log.ts';
import type { CallSchemas } from './call.ts';
import { SITE_EMAIL, isAgencyPhone, isFeeNumber, isPublicAddress, isWebAddress, SALE_FEE_MAX, RENT_FEE_MAX } from './site-settings.ts';
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

export { SITE_EMAIL, isAgencyPhone, phoneHref, isFeeNumber, isPublicAddress, isWebAddress, isLocalAddress, SALE_FEE_MAX, RENT_FEE_MAX, LOGO_MAX_BYTES } from './site-settings.ts';

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
  /** The agency's face (issue 45): its name in Greek (`name` is the one in Latin letters, shown in English and Russian), web address, tax office (ΔΟΥ). */
  nameEl: z.string().nullable(),
  website: z.string().nullable(),
  taxOffice: z.string().nullable(),
  /** The CRM's public address: links (mail, feed, shortlists) are built on it instead of PUBLIC_URL when set. */
  publicUrl: z.string().nullable(),
  /** Whether a logo was uploaded (GET /api/public/logo serves it). */
  hasLogo: z.boolean(),
  /** Whether the first set-up was done (or skipped); until then the shell offers it to office admins. */
  setupDone: z.boolean(),
  /** Publishing a property needs a mandate in force (decision 079): the server refuses it without one. */
  mandateRequiredToPublish: z.boolean(),
  version: z.number().int(),
});
export type TSiteSettings = z.infer<typeof ZSiteSettings>;
/** GET /api/SiteSettings: the settings, and the source accounts to choose the enquiries' source from. */
export const ZSiteSettingsAnswer = ZSiteSettings.extend({
  sourceList: z.array(ZSelectOption),
  /** The address links are built on now (the setting, else PUBLIC_URL, else this machine's). */
  linkBase: z.string(),
  /** Whether that address is this machine's (unset or localhost): links will not work elsewhere. */
  linksLocal: z.boolean(),
});
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
  // The fields below came later (issue 45): left out, each keeps what it is.
  nameEl: oneLine(100).nullable().optional(),
  website: oneLine(200)
    .refine((s) => s.trim() === '' || isWebAddress(s.trim()), { message: 'validation.website' })
    .nullable()
    .optional(),
  taxOffice: oneLine(100).nullable().optional(),
  publicUrl: oneLine(200)
    .refine((s) => s.trim() === '' || isPublicAddress(s.trim()), { message: 'validation.publicUrl' })
    .nullable()
    .optional(),
  /** True: the first set-up is done (the set-up screen's last step, or its Skip). */
  setupDone: z.boolean().optional(),
  /** Publishing needs a mandate in force (decision 079); left out, it keeps what it is. */
  mandateRequiredToPublish: z.boolean().optional(),
  version: ZVersion,
});
export type TSiteSettingsUpdate = z.infer<typeof ZSiteSettingsUpdate>;

/** DELETE /api/SiteSettings/logo?version=N */
export const ZSiteLogoDelete = z.object({ version: z.coerce.number().int().min(1).max(2147483647) });

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
  /** A multipart form: `file` (PNG, JPEG or WebP) and `version`. */
  uploadSiteLogo: { answer: ZSiteSettings },
  deleteSiteLogo: { query: ZSiteLogoDelete, answer: ZSiteSettings },
  /** The logo's bytes (PNG), for the public site, the sheets and mail; 404 when there is none. */
  siteLogo: {},
} satisfies Record<string, CallSchemas>;
