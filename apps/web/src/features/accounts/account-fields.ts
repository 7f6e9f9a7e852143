import type { TAccountFields } from '@crm/contract';
import { ACCOUNT_FIELD_DESCRIPTIONS, ACCOUNT_KIND_FIELDS, ACCOUNT_SPECIALTY_FIELDS, type TAccountFieldDescription } from '@crm/contract/account-fields';

// The web imports no values from '@crm/contract' (zod stays off the first page): the fields come
// from the zod-free description (test/field-descriptions.test.ts checks that it names exactly the contract's fields).

export const KIND_FLAGS = ACCOUNT_KIND_FIELDS;
export type TKindFlag = (typeof KIND_FLAGS)[number];
export const SPECIALTIES = ACCOUNT_SPECIALTY_FIELDS;

export const MAX_EMAILS = 4;
export const MAX_PHONES = 5;

export type TAccountFieldName = keyof TAccountFields;
/** Every editable field of an account, in the order of the edit form (also the merge screen's rows). */
export const ACCOUNT_FIELDS = ACCOUNT_FIELD_DESCRIPTIONS.map((d) => d.name as TAccountFieldName);
export const ACCOUNT_FIELD_BY_NAME = new Map<string, TAccountFieldDescription>(ACCOUNT_FIELD_DESCRIPTIONS.map((d) => [d.name, d]));

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
