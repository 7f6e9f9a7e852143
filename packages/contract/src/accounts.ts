import { z } from 'zod';
import { bodyPaging, byId, listAnswer, MAX_AMOUNT_NUMBER, queryPaging, sorting, ZChangeKey, ZChangeStamps, ZRecordStamps, ZDate, ZId, ZIdParam, ZOk, ZPickerAnswer, ZPickerSearch, ZSelectOption, ZVersionBody, optionLists } from './common.ts';
import type { CallSchemas } from './call.ts';
import { ACCOUNT_GENDERS, ACCOUNT_KIND_FIELDS, ACCOUNT_LANGUAGES, ACCOUNT_SPECIALTY_FIELDS, isAccountLanguage, isEmailList, isGreekTaxNumber, isPhoneList } from './account-fields.ts';

export { ACCOUNT_GENDERS, ACCOUNT_LANGUAGES, isAccountLanguage, isEmailList, isGreekTaxNumber, isPhoneList };

export const ACCOUNT_KIND_FLAGS = ACCOUNT_KIND_FIELDS;
export const SPECIALTY_FLAGS = ACCOUNT_SPECIALTY_FIELDS;
export type TSpecialtyFlag = (typeof SPECIALTY_FLAGS)[number];
export const MAX_EMAILS = 4;
export const MAX_PHONES = 5;

const text = (max = 200) => z.string().max(max).nullable();
const flags = <T extends readonly string[]>(names: T) =>
  Object.fromEntries(names.map((n) => [n, z.boolean()])) as { [K in T[number]]: z.ZodBoolean };

/** The account as edited (GET /api/account/edit/{id}, POST /api/account/update). */
export const ZAccountFields = z.object({
  firstName: text(),
  lastName: text(),
  middleName: text(),
  /** Male, female, or not stated (null). */
  gender: z.enum(ACCOUNT_GENDERS).nullable(),
  name: text(300),
  nameEng: text(300),
  nameLocal: text(300),
  firstNameEng: text(),
  lastNameEng: text(),
  middleNameEng: text(),
  firstNameLocal: text(),
  lastNameLocal: text(),
  middleNameLocal: text(),
  ...flags(ACCOUNT_KIND_FLAGS),
  isCompany: z.boolean().nullable(),
  isIndividual: z.boolean().nullable(),
  ...flags(SPECIALTY_FLAGS),
  purchaseBudgetRangeMin: z.number().min(0).max(MAX_AMOUNT_NUMBER).nullable(),
  purchaseBudgetRangeMax: z.number().min(0).max(MAX_AMOUNT_NUMBER).nullable(),
  language: text(50),
  country: text(100),
  nationality: text(100),
  companyType: text(100),
  /** Up to 4 e-mails joined by ';' (free text, no format check). */
  email: z.string().max(1000).nullable(),
  /** Up to 5 phones joined by ';'. */
  phone: z.string().max(500).nullable(),
  internalPassportNumber: text(100),
  passportNumber: text(100),
  taxNumber: text(100),
  taxNumberOfOtherCountry: text(100),
  city: text(100),
  postcode: text(20),
  address: text(500),
  startDate: ZDate.nullable(),
  endDate: ZDate.nullable(),
  role: text(50),
  branchId: ZId.nullable(),
  notes: z.string().max(20000).nullable(),
  hasTransactions: z.boolean(),
  sourceId: ZId.nullable(),
  service: z.number().int().min(0).max(100).nullable(),
});
export type TAccountFields = z.infer<typeof ZAccountFields>;

export const ZFileRef = z.object({ systemName: z.string(), userName: z.string() });

export const ZAccount = ZAccountFields.extend({
  id: z.number().int(),
  /** The name shown everywhere (company name, else "Last First Middle"). */
  displayName: z.string(),
  numberOfSoldObjects: z.number().int(),
  isClientDate: z.string().nullable(),
  isOwnerDate: z.string().nullable(),
  files: z.array(ZFileRef),
  /** Comma-joined ids of newly uploaded files to attach on save. */
  filesNew: z.string().nullable().optional(),
  ownedObjectsReferenceNumbers: z.string(),
  boughtObjectsReferenceNumbers: z.string(),
  rentedObjectsReferenceNumbers: z.string(),
  leads: z.array(z.object({ id: z.number().int(), descr: z.string() })),
  /**
   * A client's purchase budget from the newest open lead that has one (the Clients list shows the
   * same), for when the account's own budget is not set; null otherwise.
   */
  leadBudget: z.object({ leadId: z.number().int(), min: z.number().nullable(), max: z.number().nullable() }).nullable(),
  /** Whether the account has a sign-in (employees), and its e-mail. */
  signIn: z.string().nullable(),
  /** When the person's data was erased (GDPR): the account is then a number, closed to edits; null otherwise. */
  erasedOn: z.string().nullable(),
  ...ZRecordStamps,
});
export type TAccount = z.infer<typeof ZAccount>;

/** The ΑΦΜ as typed: checked when it is changed (stored numbers are shown as they are). */
const ZTaxNumberInput = text(100).refine((v) => v == null || v.trim() === '' || isGreekTaxNumber(v), { message: 'validation.taxNumber' });
/** E-mails and phones as typed: each one checked when the list is changed. */
const ZEmailsInput = text(1000).refine((v) => v == null || isEmailList(v), { message: 'validation.email' });
const ZPhonesInput = text(500).refine((v) => v == null || isPhoneList(v), { message: 'validation.phone' });
/** A language as chosen: one of the listed codes, or none (a value stored before the list is not sent back unchanged). */
const ZLanguageInput = text(50).refine((v) => v == null || v.trim() === '' || isAccountLanguage(v.trim()), { message: 'validation.language' });

/** The fields checked as typed, on an add and on a change. */
const typedInputs = {
  taxNumber: ZTaxNumberInput.optional(),
  language: ZLanguageInput.optional(),
  email: ZEmailsInput.optional(),
  phone: ZPhonesInput.optional(),
};

/** POST /api/account/update: the fields plus id and the version they were based on. */
export const ZAccountUpdate = ZAccountFields.partial().extend({
  ...typedInputs,
  ...ZChangeKey,
  filesNew: z.string().max(2000).nullable().optional(),
});
export type TAccountUpdate = z.infer<typeof ZAccountUpdate>;

/** POST /api/account/erase/{id}: the version the confirmation was shown for. */
export const ZAccountErase = ZVersionBody;

/** POST /api/account/add: first and last name required; flags preset by the add screen. */
export const ZAccountAdd = ZAccountFields.partial().extend({
  ...typedInputs,
  firstName: z.string().trim().min(1).max(200),
  lastName: z.string().trim().min(1).max(200),
});
export type TAccountAdd = z.infer<typeof ZAccountAdd>;

export const ZAccountEditAnswer = z.object({
  dto: ZAccount,
  selectLists: optionLists('roles', 'branches', 'sources', 'services'),
});

export const ZAccountMerge = z.object({
  /**
   * The kept account (a1) with the values chosen on the merge screen. The language may be the
   * duplicate's as it is stored, listed or not (the server checks that it is).
   */
  account: ZAccountUpdate.extend({ language: text(50).optional() }),
  duplicateId: ZId,
});

/** The orders of the account lists. */
const accountSorting = sorting(['createdOn', 'createdBy', 'name', 'modifiedOn', 'modifiedBy', 'objects', 'role', 'companyType', 'request'], 'createdOn');

/** Sorting and paging of the account lists (query string of the GET lists). */
export const ZListQuery = z.object({
  ...queryPaging(1000000),
  ...accountSorting,
  /** A name, phone, e-mail or tax number, or a part of one (as the global search reads it). */
  search: z.string().max(100).nullable().optional(),
});
export type TListQuery = z.infer<typeof ZListQuery>;

/** An account's first phone, as a list shows it beside the name. */
const ZPhone = { phone: z.string().nullable() };
export const ZAccountRow = z.object({ id: z.number().int(), name: z.string(), ...ZPhone, ...ZChangeStamps });
export const ZOwnerRow = ZAccountRow.extend({ objectReferenceNumbers: z.string() });
export const ZClientRow = ZOwnerRow.extend({
  hasNotClosedLead: z.boolean(),
  purchaseBudgetRangeMin: z.number().nullable(),
  purchaseBudgetRangeMax: z.number().nullable(),
});
export const ZSpecialistRow = z.object({ id: z.number().int(), name: z.string(), ...ZPhone, numberOfSoldObjects: z.number().int(), ...flags(SPECIALTY_FLAGS) });
export const ZPartnerRow = z.object({ id: z.number().int(), name: z.string(), ...ZPhone, isPartnerRealEstate: z.boolean(), isPartnerTourism: z.boolean(), country: z.string().nullable(), ...ZChangeStamps });
export const ZSourceRow = z.object({ id: z.number().int(), name: z.string(), ...ZPhone, companyType: z.string().nullable() });
export const ZEmployeRow = z.object({ id: z.number().int(), name: z.string(), ...ZPhone, role: z.string().nullable(), branchId: z.number().int().nullable(), signIn: z.string().nullable() });
export type TAccountRow = z.infer<typeof ZAccountRow>;
export type TOwnerRow = z.infer<typeof ZOwnerRow>;
export type TClientRow = z.infer<typeof ZClientRow>;
export type TSpecialistRow = z.infer<typeof ZSpecialistRow>;
export type TPartnerRow = z.infer<typeof ZPartnerRow>;
export type TSourceRow = z.infer<typeof ZSourceRow>;
export type TEmployeRow = z.infer<typeof ZEmployeRow>;

export const ZClientSearch = z.object({
  serviceFilter: z.number().int().min(0).max(100).default(0),
  sources: z.array(ZId).max(200).default([]),
  startDate: ZDate.nullable().optional(),
  endDate: ZDate.nullable().optional(),
  lastName: z.string().max(100).nullable().optional(),
  search: ZListQuery.shape.search,
  ...bodyPaging(1000000),
  ...accountSorting,
});
export const ZClientSearchAnswer = listAnswer(ZClientRow).extend({
  filterLists: optionLists('serviceList', 'sourceList'),
});

export const ZPartnerSearch = z.object({
  /** The creator as a person: an employee account id (its sign-in created the partner). */
  createdBy: ZId.nullable().optional(),
  createdByText: z.string().max(200).nullable().optional(),
  country: z.string().max(100).nullable().optional(),
  createdOnStart: ZDate.nullable().optional(),
  createdOnEnd: ZDate.nullable().optional(),
  search: ZListQuery.shape.search,
  ...bodyPaging(1000000),
  ...accountSorting,
});

/** GET /api/account/search: filter 1 employees only, 2 employees and specialists. */
export const ZAccountSearchQuery = z.object({
  ...ZPickerSearch,
  filter: z.coerce.number().int().min(0).max(2).default(0),
});
export const ZAccountSearchAnswer = ZPickerAnswer;

export const ZUserRole = z.object({ name: z.string(), role: z.string().nullable(), roleList: z.array(ZSelectOption) });
export const ZUserRoleBody = z.object({ role: z.string().min(1).max(50) });

/** Service values of the client list filter (0 = all services). */
export const CLIENT_SERVICES = [1, 2, 3, 4, 5] as const; // purchase, rent, short rent, sell, rent out
export const EMPLOYEE_ROLES = ['admin', 'employee'] as const;

/** POST /api/account/add: the new account's id. */
export const ZAccountAdded = z.object({ id: z.number().int() });

/** The accounts' calls and their schemas (decision 057); their methods and paths: `accounts.resource.ts`. */
export const ACCOUNT_API = {
  owners: { query: ZListQuery, answer: listAnswer(ZOwnerRow) },
  clients: { body: ZClientSearch, answer: ZClientSearchAnswer },
  professionals: { query: ZListQuery, answer: listAnswer(ZSpecialistRow) },
  partners: { body: ZPartnerSearch, answer: listAnswer(ZPartnerRow) },
  sources: { query: ZListQuery, answer: listAnswer(ZSourceRow) },
  employes: { query: ZListQuery, answer: listAnswer(ZEmployeRow) },
  list: { query: ZListQuery, answer: listAnswer(ZAccountRow) },
  search: { query: ZAccountSearchQuery, answer: ZAccountSearchAnswer },
  add: { body: ZAccountAdd, answer: ZAccountAdded },
  view: byId(ZAccount),
  edit: byId(ZAccountEditAnswer),
  update: { body: ZAccountUpdate, answer: ZAccount },
  remove: byId(ZOk),
  merge: { body: ZAccountMerge, answer: ZAccount },
  personalData: { params: ZIdParam },
  erase: { params: ZIdParam, body: ZAccountErase, answer: ZAccount },
  role: byId(ZUserRole),
  setRole: { params: ZIdParam, body: ZUserRoleBody, answer: ZUserRole },
} satisfies Record<string, CallSchemas>;
