import { eq } from 'drizzle-orm';
import { ACCOUNT_FIELD_DESCRIPTIONS, ACCOUNT_GENDERS, CLIENT_SERVICES, SPECIALTY_FLAGS, isAccountLanguage, isGreekTaxNumber } from '@crm/contract';
import { accounts, users } from '../../../db/schema/index.ts';
import { accessDenied, badRequest, orderError } from '../../../lib/errors.ts';
import { toLocalDateTime } from '../../../lib/dates.ts';
import type { PatchableEntity, PatchableField } from '../field-registry.ts';

const taxDescription = ACCOUNT_FIELD_DESCRIPTIONS.find((d) => d.name === 'taxNumber')!;
const ACCOUNT_TAX_NUMBER_FIELD: PatchableField = { type: taxDescription.type, max: taxDescription.max };

/**
 * Account fields editable one at a time (account view, click to edit): every described field
 * except the flags and what only the whole-record update changes (e-mails and phones, the
 * source, role and branch, which must follow onto the sign-in).
 */
const fields: Record<string, PatchableField> = {
  ...Object.fromEntries(
    ACCOUNT_FIELD_DESCRIPTIONS.filter((d) => !d.wholeRecordOnly && d.type !== 'boolean' && d.type !== 'select').map((d) => [
      d.name,
      { type: d.type, max: d.max, min: d.min, required: d.required } satisfies PatchableField,
    ]),
  ),
  // The same rule as the whole-record update: a Greek ΑΦΜ with its check digit (others go in
  // taxNumberOfOtherCountry). Without it a number saved here could never be merged or saved whole.
  taxNumber: { ...ACCOUNT_TAX_NUMBER_FIELD, check: (v) => (isGreekTaxNumber(v) ? null : 'validation.taxNumber') },
  // A language from the list, as the whole-record update takes it; the one already stored (typed
  // before the list) may stay.
  language: { type: 'text', max: 50, check: (v, row) => (isAccountLanguage(v) || v === row.language ? null : 'validation.language') },
  // branchId is not here: only admins change a branch, and it must follow onto the sign-in
  // (POST /api/account/update does both).
  // Male or female (not stated: empty), named in the reader's language.
  gender: { type: 'enum', options: (ctx) => ACCOUNT_GENDERS.map((g) => ({ value: g, text: ctx.t(`accounts.ui.gender.${g}`), parent: null })) },
  service: {
    type: 'select',
    options: (ctx) => CLIENT_SERVICES.map((s) => ({ value: s, text: ctx.t(`fields.service.${s}`), parent: null })),
  },
  specialties: {
    type: 'flag-enum',
    flags: SPECIALTY_FLAGS,
    options: (ctx) => SPECIALTY_FLAGS.map((f) => ({ value: f, text: ctx.t(`fields.specialty.${f}`), parent: null })),
  },
};

type Row = Record<string, unknown>;
/** On an employee account, startDate and endDate are the work period. */
const WORK_PERIOD = ['startDate', 'endDate'] as const;

export const accountEntity: PatchableEntity = {
  name: 'account',
  logEntity: 'Account',
  table: accounts,
  columns: { id: accounts.id, version: accounts.version },
  fields,
  async toDto(row, ctx) {
    let modifiedBy: string | null = null;
    if (typeof row.modifiedBy === 'number') {
      const [u] = await ctx.db.select({ username: users.username }).from(users).where(eq(users.id, row.modifiedBy));
      modifiedBy = u?.username ?? null;
    }
    const dto: Row = {
      id: row.id,
      version: row.version,
      displayName: row.displayName,
      modifiedOn: toLocalDateTime(row.modifiedOn as Date, ctx.timeZone),
      modifiedBy,
    };
    for (const [name, def] of Object.entries(fields)) {
      if (def.type === 'flag-enum') {
        for (const f of def.flags ?? []) dto[f] = row[f] === true;
        dto[name] = (def.flags ?? []).filter((f) => row[f] === true);
      } else dto[name] = row[def.column ?? name] ?? null;
    }
    // A branch user does not see an employee's work period (nor its role, branch or sign-in).
    if (ctx.user?.branchId != null && row.isEmploye === true) {
      for (const f of WORK_PERIOD) dto[f] = null;
    }
    return dto;
  },
  authorize(row, field, ctx) {
    // An erased person's data comes back only as a new entry, never field by field.
    if (row.erasedOn) throw badRequest('accounts.erase.closed');
    if (ctx.user?.branchId != null && row.isEmploye === true && (WORK_PERIOD as readonly string[]).includes(field)) throw accessDenied();
  },
  validate(row, field, value) {
    const pair = (lowField: string, highField: string, kind: 'budget' | 'date') => {
      const low = field === lowField ? value : row[lowField];
      const high = field === highField ? value : row[highField];
      if (low != null && high != null && (low as number | string) > (high as number | string)) throw orderError(kind, field, field === highField);
    };
    if (field === 'purchaseBudgetRangeMin' || field === 'purchaseBudgetRangeMax') pair('purchaseBudgetRangeMin', 'purchaseBudgetRangeMax', 'budget');
    if (field === 'startDate' || field === 'endDate') pair('startDate', 'endDate', 'date');
  },
};
