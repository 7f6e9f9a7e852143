import { z } from 'zod';
import { bodyPaging, byId, listAnswer, oneOf, sorting, ZRecordStamps, ZDate, ZId, ZIdString, ZOk, ZSaveKey, ZText, optionLists } from './common.ts';
import type { CallSchemas } from './call.ts';
import { zodOfField } from './objects.ts';
import {
  RESERVATION_DATE_FILTER_TYPES,
  RESERVATION_DEFAULT_DATE_FILTER,
  RESERVATION_FIELDS,
  RESERVATION_MAX_NIGHTS,
  RESERVATION_OWNER_PAYMENT_TYPES,
  RESERVATION_SOURCES,
  RESERVATION_STAGES,
  TIME_OF_DAY,
  AVAILABILITY_MAX_DAYS,
  AVAILABILITY_PAGE_SIZES,
  type TReservationFieldDescription,
} from './reservation-fields.ts';

/** The zod type of one described reservation field (every value may be null: not set). */
/** A booking's client e-mail (the server's copy of a linked account's e-mail is checked by it too). */
export const RESERVATION_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function zodOfReservationField(f: TReservationFieldDescription): z.ZodTypeAny {
  // A sum the server computes (the deposit, the final commission) is answered as it is: the limits of
  // what may be typed are not limits of what adds up, and an answer must never refuse a stored booking.
  if (f.readOnly && f.type === 'currency') return z.number().nullable();
  switch (f.name) {
    case 'objectId':
    case 'demandId':
      return ZId.nullable();
    case 'duration':
      // Out of its bounds, the stay's own words ("a stay can last at most 365 nights"), not the generic "365 or less".
      return z
        .number()
        .int()
        .min(f.min ?? 1, { message: 'reservations.tooShort' })
        .max(f.max ?? RESERVATION_MAX_NIGHTS, { message: 'reservations.tooLong' })
        .nullable();
    case 'reservationStage':
      return oneOf(RESERVATION_STAGES);
    case 'sourceId':
      return oneOf(RESERVATION_SOURCES).nullable();
    case 'paymentType':
      return oneOf(RESERVATION_OWNER_PAYMENT_TYPES).nullable();
    case 'arrivalTimePlanned':
    case 'arrivalTimeActual':
      return z.string().regex(TIME_OF_DAY, { message: 'reservations.badTime' }).nullable();
    case 'externalLink':
      return ZText(f.max ?? 1000)
        .refine((s) => /^https?:\/\/\S+$/i.test(s), { message: 'reservations.badLink' })
        .nullable();
    case 'email':
      return ZText(f.max ?? 200)
        .refine((s) => RESERVATION_EMAIL.test(s), { message: 'validation.email' })
        .nullable();
    default:
      return zodOfField(f);
  }
}

const shape = (fields: readonly TReservationFieldDescription[]) => Object.fromEntries(fields.map((f) => [f.name, zodOfReservationField(f)])) as Record<string, z.ZodTypeAny>;
const editable = RESERVATION_FIELDS.filter((f) => !f.readOnly);

/** The client of a reservation (spec: client { lastName, firstName, taxNumber, internalPassportNumber, email, phone }). */
export const ZReservationClient = z.object(shape(RESERVATION_FIELDS.filter((f) => f.group === 'client')));
/** Every described field but the client's, as answered. */
export const ZReservationFields = z.object(shape(RESERVATION_FIELDS.filter((f) => f.group !== 'client')));

export const ZReservationObject = z.object({ id: z.number().int(), referenceNumber: z.string(), title: z.string().nullable(), websiteCode: z.string().nullable() });

export const ZReservation = ZReservationFields.extend({
  id: z.number().int().nullable(),
  /** The agency's number of the booking (its id; empty until stored). */
  reservationNumber: z.string(),
  object: ZReservationObject.nullable(),
  client: ZReservationClient,
  /** The client's account, when the booking is linked to one. */
  clientAccountId: z.number().int().nullable(),
  clientAccount: z.string().nullable(),
  /** The linked lead as one line. */
  demand: z.string().nullable(),
  ...ZRecordStamps,
});
/** The reservation as answered: the fixed part typed, the described fields by name. */
export type TReservation = {
  id: number | null;
  reservationNumber: string;
  object: z.infer<typeof ZReservationObject> | null;
  client: Record<string, string | null>;
  clientAccountId: number | null;
  clientAccount: string | null;
  demand: string | null;
  createdOn: string;
  createdBy: string | null;
  modifiedOn: string;
  modifiedBy: string | null;
  version: number;
} & Record<string, unknown>;

export const ZReservationLists = optionLists('stageOptions', 'sourceOptions', 'ownerPaymentTypeOptions');
export type TReservationLists = z.infer<typeof ZReservationLists>;
/** GET /api/Reservation/add (a blank reservation, stored only on save), GET /api/Reservation/edit/{id} */
export const ZReservationAnswer = ZReservation.extend(ZReservationLists.shape);
export type TReservationAnswer = TReservation & TReservationLists;
export const ZReservationAddQuery = z.object({
  objectId: ZIdString.optional(),
  demandId: ZIdString.optional(),
  checkIn: ZDate.optional(),
});

/**
 * POST /api/Reservation/update: without id it creates the reservation. The check-out may be sent
 * instead of the duration (the nights are derived from it); sent with it, both must agree.
 * `saveClientAsAccount` stores the client as a new client account and links it.
 */
export const ZReservationUpdate = z
  .object(shape(editable.filter((f) => f.group !== 'client')))
  .partial()
  .extend({
    ...ZSaveKey,
    checkOut: ZDate.nullable().optional(),
    client: ZReservationClient.partial().optional(),
    clientAccountId: ZId.nullable().optional(),
    saveClientAsAccount: z.boolean().optional(),
  });
export type TReservationUpdate = {
  id?: number | null;
  version?: number | null;
  checkOut?: string | null;
  client?: Record<string, string | null | undefined>;
  clientAccountId?: number | null;
  saveClientAsAccount?: boolean;
} & Record<string, unknown>;

/** POST /api/Reservation/search (spec 7). Without startDate and endDate: the current year. */
export const ZReservationSearch = z.object({
  objectId: ZId.nullable().optional(),
  objectWebsiteCode: z.string().max(50).nullable().optional(),
  /** The agency's reservation number (digits). */
  reservationNumber: z.string().max(20).nullable().optional(),
  reservationNumberExternal: z.string().max(50).nullable().optional(),
  dateFilterType: oneOf(RESERVATION_DATE_FILTER_TYPES).default(RESERVATION_DEFAULT_DATE_FILTER),
  startDate: ZDate.nullable().optional(),
  endDate: ZDate.nullable().optional(),
  sources: z.array(oneOf(RESERVATION_SOURCES)).max(20).default([]),
  stages: z.array(oneOf(RESERVATION_STAGES)).max(20).default([]),
  clientName: z.string().max(100).nullable().optional(),
  ...bodyPaging(1000000),
  ...sorting(['checkIn', 'checkOut', 'bookingDate', 'total', 'id'], 'checkIn'),
});
export type TReservationSearch = z.infer<typeof ZReservationSearch>;
/** POST /api/Reservation/download: Reservations.xlsx, every booking the list's filter matches in the list's order. */
export const ZReservationDownload = ZReservationSearch.omit({ perPage: true, currentPage: true });
export type TReservationDownload = z.infer<typeof ZReservationDownload>;
/** At most this many bookings in one Reservations.xlsx. */
export const RESERVATION_DOWNLOAD_MAX = 100_000;

export const ZReservationRow = z.object({
  id: z.number().int(),
  reservationNumber: z.string(),
  reservationNumberExternal: z.string().nullable(),
  reservationStage: z.number().int(),
  stage: z.string(),
  /** The row's style class: the stage's name lowercased without spaces. */
  rowClass: z.string(),
  problem: z.string().nullable(),
  awaiting: z.string().nullable(),
  bookingDate: z.string().nullable(),
  checkIn: z.string(),
  duration: z.number().int(),
  checkOut: z.string(),
  adults: z.number().int().nullable(),
  children: z.number().int().nullable(),
  objectId: z.number().int(),
  objectReferenceNumber: z.string(),
  objectTitle: z.string().nullable(),
  objectWebsiteCode: z.string().nullable(),
  clientDisplayName: z.string(),
  clientAccountId: z.number().int().nullable(),
  sourceId: z.number().int().nullable(),
  sourceDisplayName: z.string().nullable(),
  total: z.number().nullable(),
  totalDone: z.boolean(),
  paymentToOwner: z.number().nullable(),
  comission: z.number().nullable(),
  comission3rdParty: z.number().nullable(),
  finalComission: z.number(),
});
export type TReservationRow = z.infer<typeof ZReservationRow>;
/** Exact decimal sums ("12345.60"), computed by PostgreSQL over every row the filter matches (cancelled ones aside, see sumsWithCancelled). */
export const ZReservationSums = z.object({
  total: z.string(),
  paymentToOwner: z.string(),
  comission: z.string(),
  comission3rdParty: z.string(),
  finalComission: z.string(),
});
export type TReservationSums = z.infer<typeof ZReservationSums>;
export const ZReservationSearchAnswer = listAnswer(ZReservationRow).extend({
  sums: ZReservationSums,
  /**
   * Whether the sums count cancelled bookings: only when the stage filter picks the cancelled
   * stage. Otherwise they are left out of the sums (not of the count): they earn nothing.
   */
  sumsWithCancelled: z.boolean(),
  /** The date range applied (the current year when none was sent). */
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  options: optionLists('stages', 'sources', 'dateFilterTypes'),
});
export type TReservationSearchAnswer = z.infer<typeof ZReservationSearchAnswer>;

/**
 * POST /api/Reservation/availability: the short-let properties (by reference number, paged) with
 * the bookings that hold a night of the `days` nights from `from` (cancelled ones hold none). A
 * property not let short any more is listed while a booking holds one of those nights.
 */
export const ZAvailabilityQuery = z.object({
  from: ZDate,
  days: z.number().int().min(1).max(AVAILABILITY_MAX_DAYS),
  objectId: ZId.nullable().optional(),
  objectWebsiteCode: z.string().max(50).nullable().optional(),
  ...bodyPaging(AVAILABILITY_PAGE_SIZES[AVAILABILITY_PAGE_SIZES.length - 1]!),
});
export type TAvailabilityQuery = z.infer<typeof ZAvailabilityQuery>;
export const ZAvailabilityStay = z.object({
  id: z.number().int(),
  /** The first night; the check-out is the morning after the last night (it may fall outside the window either side). */
  checkIn: z.string(),
  checkOut: z.string(),
  reservationStage: z.number().int(),
  stage: z.string(),
  rowClass: z.string(),
  clientDisplayName: z.string(),
});
export type TAvailabilityStay = z.infer<typeof ZAvailabilityStay>;
export const ZAvailabilityRow = z.object({
  objectId: z.number().int(),
  objectReferenceNumber: z.string(),
  objectTitle: z.string().nullable(),
  objectWebsiteCode: z.string().nullable(),
  forShortRent: z.boolean(),
  stays: z.array(ZAvailabilityStay),
});
export type TAvailabilityRow = z.infer<typeof ZAvailabilityRow>;
export const ZAvailabilityAnswer = listAnswer(ZAvailabilityRow).extend({
  from: z.string(),
  /** The last night shown. */
  till: z.string(),
  days: z.number().int(),
});
export type TAvailabilityAnswer = z.infer<typeof ZAvailabilityAnswer>;

/** The reservations' calls and their schemas (decision 057); their methods and paths: `reservations.resource.ts`. */
export const RESERVATION_API = {
  search: { body: ZReservationSearch, answer: ZReservationSearchAnswer },
  download: { body: ZReservationDownload },
  availability: { body: ZAvailabilityQuery, answer: ZAvailabilityAnswer },
  add: { query: ZReservationAddQuery, answer: ZReservationAnswer },
  edit: byId(ZReservationAnswer),
  update: { body: ZReservationUpdate, answer: ZReservationAnswer },
  remove: byId(ZOk),
} satisfies Record<string, CallSchemas>;
