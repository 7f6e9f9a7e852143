// The short-let reservations' fields, described once (no runtime dependencies: the web imports it
// as '@crm/contract/reservation-fields' without zod). The reservation's zod schema, the form's
// sections and inputs and the table test are made from RESERVATION_FIELDS (decision 009, 017).
import { classesByValue, type TFieldDescriptionOf } from './field-description.ts';

/** The form's sections, in the order a booking manager fills them on a phone call. */
export const RESERVATION_GROUPS = ['stay', 'client', 'booking', 'payment', 'owner', 'commission', 'notes'] as const;
export type TReservationGroup = (typeof RESERVATION_GROUPS)[number];
export type TReservationFieldDescription = TFieldDescriptionOf<TReservationGroup>;

/**
 * Stages: 1 inquiry, 2 option (held), 3 confirmed, 4 checked in, 5 checked out, 6 settled (owner
 * paid, accounts closed), 7 cancelled, 8 no-show. Every stage but cancelled holds the object's nights.
 */
export const RESERVATION_STAGES = [1, 2, 3, 4, 5, 6, 7, 8] as const;
export const RESERVATION_CANCELLED = 7;
/** Row style classes of the list (the stage's English name lowercased without spaces). */
export const RESERVATION_STAGE_CLASS = classesByValue(['inquiry', 'option', 'confirmed', 'checkedin', 'checkedout', 'settled', 'cancelled', 'noshow']);
/** Where a booking came from: 1 direct (phone, e-mail), 2 our website, 3 Airbnb, 4 Booking.com, 5 Vrbo, 6 Expedia, 7 partner agency, 8 returning guest, 9 other. */
export const RESERVATION_SOURCES = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
/** How the owner is paid: 1 bank transfer, 2 cash. */
export const RESERVATION_OWNER_PAYMENT_TYPES = [1, 2] as const;
/** Date filter types of the list (spec 9): 0 booking date, 1 check-in, 2 check-out, 3 stay (any night in the range). */
export const RESERVATION_DATE_FILTER_TYPES = [0, 1, 2, 3] as const;
/** The list's default date filter type: check-out (spec 9). */
export const RESERVATION_DEFAULT_DATE_FILTER = 2;
/** Page sizes of the reservations list (spec 9: 5, 10, 20, 50, Show all; default 20). */
export const RESERVATION_PAGE_SIZES = [5, 10, 20, 50, 1000000] as const;
/** The availability grid's windows: a month, or 14 or 30 days from a day; at most this many days at once. */
export const AVAILABILITY_MAX_DAYS = 62;
/** Short-let properties (rows) per page of the availability grid. */
export const AVAILABILITY_PAGE_SIZES = [10, 20, 50, 100] as const;

/** The longest stay, in nights. */
export const RESERVATION_MAX_NIGHTS = 365;
/** Sums of the list's footer (over every row the filter matches; cancelled ones only when the stage filter picks them). */
export const RESERVATION_SUMS = ['total', 'paymentToOwner', 'comission', 'comission3rdParty', 'finalComission'] as const;
export type TReservationSum = (typeof RESERVATION_SUMS)[number];
/** A time of day, "HH:mm". */
export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

const d = (name: string, type: TReservationFieldDescription['type'], group: TReservationGroup, extra: Partial<TReservationFieldDescription> = {}): TReservationFieldDescription => ({
  name,
  type,
  group,
  ...extra,
});
const money = (name: string, group: TReservationGroup, extra: Partial<TReservationFieldDescription> = {}) => d(name, 'currency', group, { min: 0, max: 1e10, step: 0.01, ...extra });

/**
 * Every field of a reservation, in the order of the form. The client's fields (group `client`) are
 * the `client` object of the spec's Reservation; the rest are top-level.
 */
export const RESERVATION_FIELDS: readonly TReservationFieldDescription[] = [
  // The stay: where, when, how many
  d('objectId', 'select', 'stay', { required: true, list: 'objects' }),
  d('checkIn', 'date', 'stay', { required: true }),
  d('duration', 'number', 'stay', { required: true, integer: true, min: 1, max: RESERVATION_MAX_NIGHTS }),
  d('checkOut', 'date', 'stay', { readOnly: true }),
  d('adults', 'number', 'stay', { integer: true, min: 0, max: 50 }),
  d('children', 'number', 'stay', { integer: true, min: 0, max: 50 }),
  d('arrivalTimePlanned', 'text', 'stay', { max: 5 }),
  d('arrivalTimeActual', 'text', 'stay', { max: 5 }),
  // The client (the guest who booked)
  // As long as an account's own (a booking takes its client's from the linked account): the last
  // name may be a company's name.
  d('lastName', 'text', 'client', { required: true, max: 300 }),
  d('firstName', 'text', 'client', { max: 200 }),
  d('phone', 'text', 'client', { max: 100 }),
  d('email', 'text', 'client', { max: 254 }),
  d('taxNumber', 'text', 'client', { max: 100 }),
  d('internalPassportNumber', 'text', 'client', { max: 100 }),
  // The booking
  d('reservationStage', 'select', 'booking', { required: true, list: 'stages' }),
  d('bookingDate', 'date', 'booking'),
  d('sourceId', 'select', 'booking', { list: 'sources' }),
  d('reservationNumberExternal', 'text', 'booking', { max: 50 }),
  d('externalLink', 'text', 'booking', { max: 1000 }),
  d('demandId', 'select', 'booking', { list: 'leads' }),
  // What the guest pays: the total, split into prepayment and rest by cash, bank and invoice
  money('total', 'payment'),
  d('totalDone', 'boolean', 'payment'),
  money('prepaymentCash', 'payment'),
  d('prepaymentCashDone', 'boolean', 'payment'),
  money('prepaymentBank', 'payment'),
  d('prepaymentBankDone', 'boolean', 'payment'),
  money('prepaymentInvoice', 'payment'),
  money('totalPaymentDeposit', 'payment', { readOnly: true }),
  money('restCash', 'payment'),
  d('restCashDone', 'boolean', 'payment'),
  money('restBank', 'payment'),
  d('restBankDone', 'boolean', 'payment'),
  money('restInvoice', 'payment'),
  // The owner's share
  money('paymentToOwner', 'owner'),
  d('ownerPayments', 'boolean', 'owner'),
  d('paymentType', 'select', 'owner', { list: 'ownerPaymentTypes' }),
  d('ownerPaymentDate', 'date', 'owner'),
  d('ownerPaymentNotes', 'textarea', 'owner', { max: 2000 }),
  // The agency's share
  money('comission', 'commission'),
  money('comission3rdParty', 'commission'),
  money('finalComission', 'commission', { readOnly: true }),
  // What needs attention
  d('problem', 'textarea', 'notes', { max: 2000 }),
  d('awaiting', 'textarea', 'notes', { max: 2000 }),
];

export const RESERVATION_CLIENT_FIELDS = RESERVATION_FIELDS.filter((f) => f.group === 'client').map((f) => f.name);
export const RESERVATION_FIELD_BY_NAME: ReadonlyMap<string, TReservationFieldDescription> = new Map(RESERVATION_FIELDS.map((f) => [f.name, f]));

/** The stay's last day: the check-out, `nights` after the check-in ("YYYY-MM-DD"). */
export function checkOutOf(checkIn: string | null | undefined, nights: number | null | undefined): string | null {
  if (!checkIn || !nights) return null;
  const t = Date.parse(`${checkIn}T00:00:00Z`);
  if (Number.isNaN(t)) return null;
  return new Date(t + nights * 86400000).toISOString().slice(0, 10);
}
/** Nights between check-in and check-out. */
export function nightsBetween(checkIn: string, checkOut: string): number {
  return Math.round((Date.parse(`${checkOut}T00:00:00Z`) - Date.parse(`${checkIn}T00:00:00Z`)) / 86400000);
}
/** Money in cents, to add and subtract without float errors. */
const cents = (n: number | null | undefined) => (n == null ? 0 : Math.round(n * 100));
/** The agency's final commission: its commission less the third party's. */
export const finalComissionOf = (comission: number | null | undefined, comission3rdParty: number | null | undefined) =>
  (cents(comission) - cents(comission3rdParty)) / 100;
/** The prepayment (deposit): cash, bank and invoice together. */
export const depositOf = (r: { prepaymentCash?: number | null; prepaymentBank?: number | null; prepaymentInvoice?: number | null }) =>
  (cents(r.prepaymentCash) + cents(r.prepaymentBank) + cents(r.prepaymentInvoice)) / 100;
/** What of the total is not yet split into prepayment and rest (negative: split more than the total). */
export const unallocatedOf = (r: Record<string, unknown>) =>
  (cents(r.total as number | null) -
    ['prepaymentCash', 'prepaymentBank', 'prepaymentInvoice', 'restCash', 'restBank', 'restInvoice'].reduce((s, k) => s + cents(r[k] as number | null), 0)) /
  100;
