import type { TFunction } from 'i18next';
import type { TReservationAnswer, TSelectOption } from '@crm/contract';
import { RESERVATION_FIELDS, depositOf, finalComissionOf, unallocatedOf, type TReservationFieldDescription } from '@crm/contract/reservation-fields';
import { toDraft, toWire, type Draft } from '../../components/fields/field-values.ts';
import type { Picked } from '../../components/search-picker.tsx';
import { mergeOnConflict } from '../../lib/conflict-merge.ts';
import type { Merged } from '../../kit/record.tsx';

/**
 * The booking form's values and how they come from the answer and go back to the server: the
 * described fields (the guest's as `client.<name>`), the property, the guest's account and the lead.
 */
export type Drafts = Record<string, Draft>;
export type Form = { fields: Drafts; object: Picked; account: Picked; lead: Picked; saveClientAsAccount: boolean };

/** What a section of the form is drawn from: the booking as loaded, the form, its errors and its mode. */
export type Sheet = {
  r: TReservationAnswer;
  form: Form;
  setForm: (next: (f: Form) => Form) => void;
  setField: (name: string, v: Draft) => void;
  errors: Record<string, string>;
  readOnly: boolean;
};

/** Fields the form draws by hand (pickers, the stay's dates); the rest come from the description. */
export const SPECIAL = new Set(['objectId', 'demandId', 'checkIn', 'checkOut', 'duration', 'bookingDate', 'ownerPaymentDate', 'totalPaymentDeposit', 'finalComission']);
export const CLIENT = RESERVATION_FIELDS.filter((d) => d.group === 'client');
export const OTHER = RESERVATION_FIELDS.filter((d) => d.group !== 'client');
/** An amount's "done" flag (`totalDone`, `prepaymentCashDone` …), drawn next to the amount. */
export const DONE_OF = new Map(RESERVATION_FIELDS.filter((d) => d.type === 'boolean' && RESERVATION_FIELDS.some((m) => `${m.name}Done` === d.name)).map((d) => [d.name.slice(0, -4), d]));
export const PAIRED = new Set([...DONE_OF.values()].map((d) => d.name));
/** The described fields of a group that are not drawn by hand. */
export const described = (group: string) => OTHER.filter((d) => d.group === group && !SPECIAL.has(d.name));
export const fieldNamed = (name: string) => RESERVATION_FIELDS.find((d) => d.name === name)!;

export function listOf(d: TReservationFieldDescription, r: TReservationAnswer): TSelectOption[] {
  if (d.list === 'stages') return r.stageOptions;
  if (d.list === 'sources') return r.sourceOptions;
  if (d.list === 'ownerPaymentTypes') return r.ownerPaymentTypeOptions;
  return [];
}

export function toForm(r: TReservationAnswer): Form {
  const fields: Drafts = {};
  for (const d of OTHER) fields[d.name] = d.type === 'date' ? ((r[d.name] as string | null) ?? null) : toDraft(d.type, r[d.name]);
  for (const d of CLIENT) fields[`client.${d.name}`] = toDraft(d.type, r.client[d.name]);
  return {
    fields,
    object: r.object ? { id: r.object.id, text: `#${r.object.referenceNumber}${r.object.title ? ` ${r.object.title}` : ''}` } : null,
    account: r.clientAccountId ? { id: r.clientAccountId, text: r.clientAccount ?? `#${r.clientAccountId}` } : null,
    lead: r.demandId ? { id: r.demandId as number, text: r.demand ?? `#${r.demandId as number}` } : null,
    saveClientAsAccount: false,
  };
}

/** The wire value of a described field from the form. */
function wire(d: TReservationFieldDescription, f: Form, r: TReservationAnswer) {
  const key = d.group === 'client' ? `client.${d.name}` : d.name;
  if (d.type === 'date') return f.fields[key] || null;
  return toWire(d.type, f.fields[key] ?? null, listOf(d, r));
}

/** POST /api/Reservation/update's body from the form (with the version it was based on). */
export function bodyOf(form: Form, r: TReservationAnswer): Record<string, unknown> {
  const body: Record<string, unknown> = { ...(r.id != null ? { id: r.id, version: r.version } : {}) };
  for (const d of OTHER) if (!d.readOnly && d.name !== 'objectId' && d.name !== 'demandId') body[d.name] = wire(d, form, r);
  body.objectId = form.object?.id ?? null;
  body.demandId = form.lead?.id ?? null;
  body.client = Object.fromEntries(CLIENT.map((d) => [d.name, wire(d, form, r)]));
  body.clientAccountId = form.account?.id ?? null;
  if (form.saveClientAsAccount && !form.account) body.saveClientAsAccount = true;
  return body;
}

/** Someone else saved first: their version with what only this user changed (kept when more was changed than lost). */
export function mergeReservation(loaded: Form, mine: Form, theirs: Form): Merged<Form> {
  const flat = (f: Form) => ({ ...f.fields, object: f.object, account: f.account, lead: f.lead, saveClientAsAccount: f.saveClientAsAccount });
  const m = mergeOnConflict(flat(loaded), flat(mine), flat(theirs));
  const { object, account, lead, saveClientAsAccount, ...fields } = m.next;
  return {
    next: { fields: fields as Drafts, object: object as Picked, account: account as Picked, lead: lead as Picked, saveClientAsAccount: Boolean(saveClientAsAccount) },
    changed: m.changed,
    lost: m.lost,
    kept: m.changed.length > m.lost.length,
  };
}

/** A merged field's name as the form labels it. */
export const conflictLabel = (t: TFunction) => (k: string) =>
  k === 'object' ? t('fields.reservation.objectId') : k === 'account' ? t('fields.reservation.clientAccount') : k === 'lead' ? t('fields.reservation.demandId') : t(`fields.reservation.${k.replace(/^client\./, '')}`);

/** What the server computes from the money typed, shown live: the deposit, the final commission, what is not allocated, what goes to the owner over the total. */
export function moneyOf(fields: Drafts) {
  const num = (name: string) => {
    const v = toWire('currency', fields[name] ?? null);
    return typeof v === 'number' ? v : null;
  };
  const money = Object.fromEntries(['total', 'prepaymentCash', 'prepaymentBank', 'prepaymentInvoice', 'restCash', 'restBank', 'restInvoice', 'comission', 'comission3rdParty'].map((k) => [k, num(k)]));
  const toOwner = num('paymentToOwner');
  return {
    deposit: depositOf(money),
    finalComission: finalComissionOf(money.comission, money.comission3rdParty),
    unallocated: money.total != null ? unallocatedOf(money) : null,
    ownerOver: toOwner != null && money.total != null ? Math.round((toOwner - money.total) * 100) / 100 : 0,
  };
}
export type Money = ReturnType<typeof moneyOf>;
