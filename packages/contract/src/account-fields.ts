// The accounts' fields, described once (no runtime dependencies: the web imports it as
// '@crm/contract/account-fields' without zod). The single-field editor's rules on the server, and
// the merge screen's rows and value formatting on the web, are made from ACCOUNT_FIELD_DESCRIPTIONS.
// See docs/decisions/009-field-descriptions.md.
import type { TFieldDescriptionOf } from './field-description.ts';

export const ACCOUNT_GROUPS = ['names', 'kinds', 'client', 'company', 'specialties', 'personal', 'otherNames', 'contacts', 'documents', 'address', 'employment', 'notes'] as const;
export type TAccountGroup = (typeof ACCOUNT_GROUPS)[number];
export type TAccountFieldDescription = TFieldDescriptionOf<TAccountGroup>;

const d = (name: string, type: TAccountFieldDescription['type'], group: TAccountGroup, extra: Partial<TAccountFieldDescription> = {}): TAccountFieldDescription => ({
  name,
  type,
  group,
  ...extra,
});
const text = (name: string, group: TAccountGroup, max = 200, extra: Partial<TAccountFieldDescription> = {}) => d(name, 'text', group, { max, ...extra });
/** Kinds and specialties are on/off flags that only the whole-record update changes. */
const flag = (group: TAccountGroup) => (name: string) => d(name, 'boolean', group, { wholeRecordOnly: true });

export const ACCOUNT_KIND_FIELDS = ['isOwner', 'isClient', 'isEmploye', 'isSource', 'isProfessional', 'isPartnerRealEstate', 'isPartnerTourism'] as const;
export const ACCOUNT_SPECIALTY_FIELDS = [
  'isAttorney', 'isNotary', 'isLawyer', 'isWorker', 'isElectrician', 'isConstructionEngineer', 'isCleaner',
  'isInteriorDesigner', 'isTranslator', 'isAccountant', 'isEconomist', 'isLandscapeDesigner', 'isSecurityService',
  'isPlumber', 'isLocksmith', 'isIT', 'isWebDesigner', 'isEnergySupplyCompany', 'isElectricalStore', 'isTechnician',
  'isRealEstateAgencyOrBroker',
] as const;

/**
 * The languages an account's language is chosen from (ISO 639-1 codes, which the account keeps; the
 * app names each in the reader's language, `accounts.ui.language.*`): those an agency's clients speak
 * most. A value stored before the list (typed as text, "Russian") is kept and shown as it is until
 * someone chooses another; a new value must be one of these.
 */
export const ACCOUNT_LANGUAGES = ['el', 'en', 'ru', 'uk', 'de', 'fr', 'it', 'es', 'nl', 'pl', 'bg', 'ro', 'sr', 'sq', 'tr', 'he', 'ar', 'zh', 'ka', 'hy', 'sv', 'no', 'da', 'fi', 'cs', 'hu'] as const;
export const isAccountLanguage = (code: string): boolean => (ACCOUNT_LANGUAGES as readonly string[]).includes(code);

/**
 * A person's gender as the account states it (null: not stated). A Greek or Russian letter greets by
 * it ("Αγαπητή Mary", "Уважаемая …") before it guesses from the name; a company has none.
 */
export const ACCOUNT_GENDERS = ['male', 'female'] as const;
export type TAccountGender = (typeof ACCOUNT_GENDERS)[number];

/** Every editable field of an account, in the order of the edit form (also the merge screen's rows). */
export const ACCOUNT_FIELD_DESCRIPTIONS: readonly TAccountFieldDescription[] = [
  text('lastName', 'names', 200, { required: true }),
  text('firstName', 'names', 200, { required: true }),
  text('middleName', 'names'),
  d('gender', 'enum', 'names', { list: 'genders' }),
  ...ACCOUNT_KIND_FIELDS.map(flag('kinds')),
  d('hasTransactions', 'boolean', 'kinds', { wholeRecordOnly: true }),
  d('purchaseBudgetRangeMin', 'currency', 'client'),
  d('purchaseBudgetRangeMax', 'currency', 'client'),
  d('sourceId', 'select', 'client', { list: 'sources', wholeRecordOnly: true }),
  d('service', 'select', 'client', { list: 'services' }),
  d('isCompany', 'boolNullable', 'company'),
  d('isIndividual', 'boolNullable', 'company'),
  text('name', 'company', 300),
  text('nameEng', 'company', 300),
  text('nameLocal', 'company', 300),
  ...ACCOUNT_SPECIALTY_FIELDS.map(flag('specialties')),
  text('language', 'personal', 50),
  text('country', 'personal', 100),
  text('nationality', 'personal', 100),
  text('companyType', 'company', 100),
  text('lastNameEng', 'otherNames'),
  text('firstNameEng', 'otherNames'),
  text('middleNameEng', 'otherNames'),
  text('lastNameLocal', 'otherNames'),
  text('firstNameLocal', 'otherNames'),
  text('middleNameLocal', 'otherNames'),
  /** Up to 4 e-mails and 5 phones, joined by ';' */
  text('email', 'contacts', 1000, { wholeRecordOnly: true }),
  text('phone', 'contacts', 500, { wholeRecordOnly: true }),
  text('internalPassportNumber', 'documents', 100),
  text('passportNumber', 'documents', 100),
  text('taxNumber', 'documents', 100),
  text('taxNumberOfOtherCountry', 'documents', 100),
  text('city', 'address', 100),
  text('postcode', 'address', 20),
  text('address', 'address', 500),
  d('startDate', 'date', 'employment'),
  d('endDate', 'date', 'employment'),
  d('role', 'select', 'employment', { list: 'roles', wholeRecordOnly: true }),
  d('branchId', 'select', 'employment', { list: 'branches', wholeRecordOnly: true }),
  d('notes', 'textarea', 'notes', { max: 20000 }),
];

/**
 * A Greek tax number (ΑΦΜ): nine digits, the last a check digit (the first eight weighted by 256,
 * 128, … 2, the sum mod 11, then mod 10). Spaces, dots and the VAT prefix "EL" are allowed around
 * it; all zeros is not a number anyone has. Numbers of other countries go in taxNumberOfOtherCountry.
 */
export function isGreekTaxNumber(text: string): boolean {
  const s = text.replace(/[\s.]/g, '').replace(/^EL/i, '');
  if (!/^\d{9}$/.test(s) || s === '000000000') return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(s[i]) * 2 ** (8 - i);
  return (sum % 11) % 10 === Number(s[8]);
}

/**
 * An estate agency's registry number as written on its papers: the ΓΕΜΗ number (12 digits today,
 * fewer on older ones) or its number in the registry of estate agents, maybe with a prefix or two
 * ("ΓΕΜΗ 123456701000", "Α.Μ. 2345", "ΓΕΜΗ: 123456701000 / ΑΜ 2345"). Lenient: letters, digits,
 * spaces and . , / - : # № ( ), with at least two digits; words without a number are refused.
 */
export function isRegistryNumber(text: string): boolean {
  const s = text.trim();
  return /^[\p{L}\d\s.,/:#№()-]+$/u.test(s) && (s.match(/\d/g) ?? []).length >= 2;
}

/** The parts of a ';'-joined list of e-mails or phones, blanks left out. */
const listParts = (text: string) => text.split(';').map((p) => p.trim()).filter(Boolean);

/**
 * Each e-mail of a ';'-joined list looks like one: a name, one @, and a domain with a dot
 * (maria@@example and maria@example are refused; the mail server is the final judge).
 */
export const isEmailList = (text: string): boolean => listParts(text).every((p) => /^[^\s@;,]+@[^\s@;,]+\.[^\s@;,.]+$/.test(p) && !p.includes('..'));

/**
 * Each phone of a ';'-joined list is a number as people write one: digits with spaces, dots,
 * dashes, brackets, a leading + (or "(+") and at most an extension ("ext. 12", "εσωτ. 12"), 5 to 15 digits
 * before it. Letters in place of digits ("abc-12") are refused.
 */
export const isPhoneList = (text: string): boolean =>
  listParts(text).every((p) => {
    const [number, ext] = p.split(/\s*(?:ext\.?|x|εσωτ\.?|доб\.?)\s*/i);
    if (ext !== undefined && !/^\d{1,6}$/.test(ext)) return false;
    const digits = (number ?? '').replace(/\D/g, '').length;
    // The country code may stand in brackets: "(+30) 697 123 4567".
    return /^(?:\+|\(\+)?[\d\s().\-/]+$/.test(number ?? '') && digits >= 5 && digits <= 15;
  });
