import type { TAccountFields, TSpecialtyFlag } from '@crm/contract';

// The web imports no values from '@crm/contract' (zod stays off the first page), so the field
// names the screens iterate over are listed here; the type checks below fail the build when the
// contract gains or loses a field.

export const KIND_FLAGS = ['isOwner', 'isClient', 'isEmploye', 'isSource', 'isProfessional', 'isPartnerRealEstate', 'isPartnerTourism'] as const;
export type TKindFlag = (typeof KIND_FLAGS)[number];

export const SPECIALTIES = [
  'isAttorney', 'isNotary', 'isLawyer', 'isWorker', 'isElectrician', 'isConstructionEngineer', 'isCleaner',
  'isInteriorDesigner', 'isTranslator', 'isAccountant', 'isEconomist', 'isLandscapeDesigner', 'isSecurityService',
  'isPlumber', 'isLocksmith', 'isIT', 'isWebDesigner', 'isEnergySupplyCompany', 'isElectricalStore', 'isTechnician',
  'isRealEstateAgencyOrBroker',
] as const satisfies readonly TSpecialtyFlag[];

export const MAX_EMAILS = 4;
export const MAX_PHONES = 5;

/** Every editable field of an account, in the order of the edit form (also the merge screen's rows). */
export const ACCOUNT_FIELDS = [
  'lastName', 'firstName', 'middleName',
  ...KIND_FLAGS,
  'hasTransactions',
  'purchaseBudgetRangeMin', 'purchaseBudgetRangeMax', 'sourceId', 'service',
  'isCompany', 'isIndividual', 'name', 'nameEng', 'nameLocal',
  ...SPECIALTIES,
  'language', 'country', 'nationality', 'companyType',
  'lastNameEng', 'firstNameEng', 'middleNameEng', 'lastNameLocal', 'firstNameLocal', 'middleNameLocal',
  'email', 'phone',
  'internalPassportNumber', 'passportNumber', 'taxNumber', 'taxNumberOfOtherCountry',
  'city', 'postcode', 'address',
  'startDate', 'endDate', 'role', 'branchId',
  'notes',
] as const;
export type TAccountFieldName = (typeof ACCOUNT_FIELDS)[number];

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const fieldsMatchContract: Same<TAccountFieldName, keyof TAccountFields> = true;
const specialtiesMatchContract: Same<(typeof SPECIALTIES)[number], TSpecialtyFlag> = true;
void fieldsMatchContract;
void specialtiesMatchContract;

/** The e-mails or phones of an account: the API joins them with ';'. */
export const splitList = (joined: string | null | undefined): string[] =>
  (joined ?? '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
export const joinList = (items: string[]): string | null => {
  const kept = items.map((s) => s.trim()).filter(Boolean);
  return kept.length ? kept.join(';') : null;
};

/** Kinds of an account, for badges and add screens. */
export const kindsOf = (a: Pick<TAccountFields, TKindFlag | 'hasTransactions'>): (TKindFlag | 'hasTransactions')[] => [
  ...KIND_FLAGS.filter((k) => a[k]),
  ...(a.hasTransactions ? (['hasTransactions'] as const) : []),
];
