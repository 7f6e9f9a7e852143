import type { TSelectOption } from '@crm/contract';
import { DEAL_FIELDS, DEAL_GROUPS, DEAL_RENTAL_ONLY, DEAL_SALE_ONLY, DEAL_TYPE_RENTAL, type TDealFieldDescription, type TDealGroup } from '@crm/contract/deal-fields';
import { toDraft, toWire, type Draft } from '../../components/fields/field-values.ts';
import type { Picked } from '../../components/search-picker.tsx';
import { mergeOnConflict, mergeRowsOnConflict } from '../../lib/conflict-merge.ts';
import type { Merged } from '../../kit/record.tsx';
import type { TDealAnswer } from './api/deals.ts';
import { depositCheck } from './deposit-check.ts';

/** A deal's form: its described fields as typed, its property and lead as picked, its parties as rows. */
export type PartyRow = { key: number; account: Picked; relation: number };
export type DealFormValues = { values: Record<string, Draft>; object: Picked; demand: Picked; parties: PartyRow[] };

let lastKey = 0;
/** A party row's own key (React's), never a value. */
export const newPartyKey = () => ++lastKey;

export const typeOf = (values: Record<string, Draft>) => Number(values.dealType);
/** Fields of the other deal type are not shown (spec: rent dates for rentals, contract duration for sales). */
export const shown = (d: TDealFieldDescription, dealType: number) =>
  dealType === DEAL_TYPE_RENTAL ? !(DEAL_SALE_ONLY as readonly string[]).includes(d.name) : !(DEAL_RENTAL_ONLY as readonly string[]).includes(d.name);
/** A group's fields on the deal's page (its form and, read only, its view) for a deal of this type (`fields`: the description, by default the real one). */
export const dealGroupFields = (group: TDealGroup, dealType: number, fields: readonly TDealFieldDescription[] = DEAL_FIELDS): TDealFieldDescription[] =>
  fields.filter((d) => d.group === group && shown(d, dealType));
/** Every field of the deal's page, group by group, for a deal of this type. */
export const dealPageFields = (dealType: number, fields: readonly TDealFieldDescription[] = DEAL_FIELDS): TDealFieldDescription[] => DEAL_GROUPS.flatMap((g) => dealGroupFields(g, dealType, fields));
/** The values with the other deal type's fields cleared (as the server does when the type changes). */
export const onlyTypeFields = (values: Record<string, Draft>) => {
  const out = { ...values };
  for (const d of DEAL_FIELDS) if (!shown(d, typeOf(out))) out[d.name] = toDraft(d.type, null);
  return out;
};

export function toDealForm(d: TDealAnswer): DealFormValues {
  return {
    values: Object.fromEntries(DEAL_FIELDS.map((f) => [f.name, toDraft(f.type, (d as Record<string, unknown>)[f.name])])),
    object: d.objectId ? { id: d.objectId, text: `#${d.objectReferenceNumber ?? d.objectId}${d.objectTitle ? ` ${d.objectTitle}` : ''}` } : null,
    demand: d.demandId ? { id: d.demandId, text: d.demand ?? `#${d.demandId}` } : null,
    parties: d.accounts.map((p) => ({ key: newPartyKey(), account: { id: p.accountId, text: p.account }, relation: p.relation })),
  };
}

/** The deal as the API takes it: the other type's fields empty, the parties without an account dropped (spec). */
export function dealBody(form: DealFormValues, deal: TDealAnswer, lists: Record<string, TSelectOption[]>) {
  const dealType = typeOf(form.values);
  const fields = Object.fromEntries(DEAL_FIELDS.map((d) => [d.name, shown(d, dealType) ? toWire(d.type, form.values[d.name] ?? null, d.list ? lists[d.list] : []) : null]));
  return {
    ...fields,
    ...(deal.id != null ? { id: deal.id, version: deal.version } : {}),
    objectId: form.object?.id ?? null,
    demandId: form.demand?.id ?? null,
    accounts: form.parties.filter((p) => p.account).map((p) => ({ accountId: p.account!.id, relation: p.relation })),
  };
}

/**
 * A lead picked (`from`: the blank deal the server makes from it): its client joins the parties as
 * buyer, the deal takes the lead's kind (a rental for a lead that wants to rent) while no price is
 * typed, and when the deal has no property yet, the property the lead is about with that property's
 * owners as sellers and its price as asking. Nothing typed is replaced.
 */
export function withLead(f: DealFormValues, leadId: number, from: TDealAnswer): DealFormValues {
  if (f.demand?.id !== leadId) return f;
  const suggested = toDealForm(from);
  const takeObject = f.object == null && suggested.object != null;
  const has = (p: PartyRow) => f.parties.some((q) => q.account?.id === p.account?.id && q.relation === p.relation);
  const added = suggested.parties.filter((p) => (takeObject || p.relation !== 1) && !has(p));
  let values = { ...f.values };
  const untyped = (n: string) => values[n] === '' || values[n] == null;
  // The lead's kind of deal, while no price is typed; the other kind's fields are cleared, as choosing the type does.
  if (from.dealType !== typeOf(values) && untyped('askingPrice') && untyped('price')) values = onlyTypeFields({ ...values, dealType: suggested.values.dealType ?? null });
  // The property's price for this kind of deal (the sale price for a sale, the rent for a rental).
  // With it, the agency's commission on that price as the settings' fees give it, unless one is typed.
  if (takeObject && from.dealType === typeOf(values) && untyped('askingPrice')) {
    values.askingPrice = suggested.values.askingPrice ?? '';
    if (untyped('commission')) values.commission = suggested.values.commission ?? '';
  }
  return { ...f, values, object: takeObject ? suggested.object : f.object, parties: [...f.parties, ...added] };
}

/**
 * Someone else saved first: the fields merged one by one, the parties party by party (an account in
 * a role): a notary added here survives a lawyer added there; a party removed here is removed from
 * theirs. Rows still without an account are this user's, kept as they are.
 */
export function mergeDealForms(loaded: DealFormValues, form: DealFormValues, theirs: DealFormValues): Merged<DealFormValues> {
  const flat = (f: DealFormValues) => ({ ...f.values, object: f.object, demand: f.demand });
  const fields = mergeOnConflict(flat(loaded), flat(form), flat(theirs));
  const withAccount = (rows: PartyRow[]) => rows.filter((p) => p.account).map(({ account, relation }) => ({ account, relation }));
  const rows = mergeRowsOnConflict(withAccount(loaded.parties), withAccount(form.parties), withAccount(theirs.parties), (p) => `${p.account!.id}:${p.relation}`, (p) => p.account!.text);
  const parties: PartyRow[] = [...rows.rows.map((p) => ({ key: newPartyKey(), ...p })), ...form.parties.filter((p) => !p.account)];
  const { object, demand, ...values } = fields.next;
  return {
    next: { values: values as Record<string, Draft>, object: object as Picked, demand: demand as Picked, parties },
    changed: [...fields.changed, ...(rows.changed || rows.lost.length ? ['parties'] : [])],
    lost: [...fields.lost, ...(rows.lost.length ? ['parties'] : [])],
    kept: fields.changed.length > fields.lost.length || rows.changed,
  };
}

/**
 * What to say under the deposit, as a text key: a sale's deposit above the price is possible (a
 * package, a renegotiated price) but usually a typing slip; a rental's price is a month's rent and
 * its deposit one to three months of it. Said, not refused.
 */
export function depositWarning(values: Record<string, Draft>): string | null {
  const amount = (name: string) => {
    const v = values[name];
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v.replace(',', '.')) : NaN;
    return Number.isFinite(n) ? n : null;
  };
  return depositCheck(typeOf(values), amount('deposit'), amount('price') ?? amount('askingPrice'));
}
