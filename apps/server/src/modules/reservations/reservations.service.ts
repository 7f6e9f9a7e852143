import type { FastifyInstance } from 'fastify';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  isGreekTaxNumber,
  LinkKind,
  MAX_ID,
  RESERVATION_CANCELLED,
  RESERVATION_DATE_FILTER_TYPES,
  RESERVATION_FIELDS,
  MAX_EMAILS,
  MAX_PHONES,
  RESERVATION_EMAIL,
  isEmailList,
  isPhoneList,
  RESERVATION_MAX_NIGHTS,
  RESERVATION_OWNER_PAYMENT_TYPES,
  RESERVATION_SOURCES,
  RESERVATION_STAGES,
  RESERVATION_STAGE_CLASS,
  formatReferenceNumber,
  nightsBetween,
  type TCulture,
  type TSelectOption,
  type TReservationSearch,
  type TReservationUpdate,
  LOG_MESSAGE,
} from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { buildOnce } from '../../db/prepared.ts';
import { accounts, leads, objects, reservations } from '../../db/schema/index.ts';
import { AppError, conflict, fieldError, notFound, requireVersion } from '../../lib/errors.ts';
import { logAction } from '../../lib/audit.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import type { Caller } from '../../plugins/auth.ts';
import { containsPattern, escapeLike, latinMatch } from '../accounts/accounts.sql.ts';
import { splitList } from '../accounts/accounts.service.ts';
import { leadOptionText } from '../leads/leads.service.ts';
import { nameOfUser, recordStamps } from '../../lib/record-stamps.ts';
import { objectTitle } from '../objects/objects.sql.ts';
import { deleteActivityLinks } from '../activities/activity-orphans.ts';

export type T = (key: string, params?: Record<string, string | number>) => string;
type Row = Record<string, unknown>;
type ReservationRow = typeof reservations.$inferSelect;

const LOG_ENTITY = 'Reservation';
/** The client's fields: the answer's `client.<name>` is the column `client<Name>`. */
const CLIENT_COLUMNS = { lastName: 'clientLastName', firstName: 'clientFirstName', taxNumber: 'clientTaxNumber', internalPassportNumber: 'clientInternalPassportNumber', email: 'clientEmail', phone: 'clientPhone' } as const;
type ClientField = keyof typeof CLIENT_COLUMNS;
/** Described fields stored in a column of the same name (the client's and the computed ones aside). */
const PLAIN_FIELDS = RESERVATION_FIELDS.filter((f) => f.group !== 'client' && !f.readOnly).map((f) => f.name);

const options = (values: readonly number[], key: string, t: T): TSelectOption[] => values.map((v) => ({ value: v, text: t(`${key}.${v}`), parent: null }));
export const stageOptions = (t: T) => options(RESERVATION_STAGES, 'reservations.stage', t);
export const sourceOptions = (t: T) => options(RESERVATION_SOURCES, 'reservations.source', t);
export const lists = (t: T) => ({ stageOptions: stageOptions(t), sourceOptions: sourceOptions(t), ownerPaymentTypeOptions: options(RESERVATION_OWNER_PAYMENT_TYPES, 'reservations.ownerPaymentType', t) });

/** "12/07/2026" (en, el) or "12.07.2026" (ru): the day as the reader writes it. */
export const dayText = (day: string, culture: TCulture) => {
  const [y, m, d] = day.split('-');
  return culture === 'ru' ? `${d}.${m}.${y}` : `${d}/${m}/${y}`;
};
const clientName = (r: { clientLastName: string | null; clientFirstName: string | null }) => [r.clientLastName, r.clientFirstName].filter(Boolean).join(' ');


async function objectOf(db: Db | Tx, id: number | null, culture: TCulture) {
  if (id == null) return null;
  const [o] = await db
    .select({ id: objects.id, ref: objects.referenceNumber, title: objectTitle(culture), websiteCode: sql<string | null>`${sql.identifier('objects')}.website_code`, forShortRent: sql<boolean>`${sql.identifier('objects')}.for_short_rent` })
    .from(objects)
    .where(eq(objects.id, id));
  return o ?? null;
}

/** The reservation as shown and edited. */
export async function getReservation(app: FastifyInstance, db: Db | Tx, id: number, t: T, culture: TCulture) {
  // Built once (db/prepared.ts).
  const query = buildOnce(db, 'reservation_load', (name) =>
    db
      .select({ r: reservations, createdBy: nameOfUser(sql`${reservations.createdBy}`), modifiedBy: nameOfUser(sql`${reservations.modifiedBy}`), clientAccount: accounts.displayName })
      .from(reservations)
      .leftJoin(accounts, eq(accounts.id, reservations.clientAccountId))
      .where(eq(reservations.id, sql.placeholder('id')))
      .prepare(name),
  );
  const [row] = await query.execute({ id });
  if (!row) throw notFound('reservations.notFound');
  const r = row.r;
  const o = await objectOf(db, r.objectId, culture);
  const tz = app.config.timeZone;
  const fields = Object.fromEntries(RESERVATION_FIELDS.filter((f) => f.group !== 'client').map((f) => [f.name, (r as unknown as Row)[f.name] ?? null]));
  return {
    ...fields,
    id: r.id,
    reservationNumber: String(r.id),
    object: o ? { id: o.id, referenceNumber: formatReferenceNumber(o.ref), title: o.title, websiteCode: o.websiteCode } : null,
    client: Object.fromEntries(Object.entries(CLIENT_COLUMNS).map(([k, c]) => [k, (r[c] as string | null) ?? null])),
    clientAccountId: r.clientAccountId ?? null,
    clientAccount: row.clientAccount ?? null,
    demand: await leadOptionText(db, r.demandId ?? null, t),
    ...recordStamps(r, row, tz),
    ...lists(t),
  };
}

/** GET /api/Reservation/add: a blank reservation (stored only on save), optionally for an object, a lead and a check-in day. */
export async function blankReservation(app: FastifyInstance, q: { objectId?: number; demandId?: number; checkIn?: string }, t: T, culture: TCulture) {
  const now = new Date();
  const today = toLocalDateTime(now, app.config.timeZone)!.slice(0, 10);
  const o = await objectOf(app.db, q.objectId ?? null, culture);
  if (q.objectId != null && !o) throw notFound('reservations.objectNotFound');
  let client: Record<ClientField, string | null> = { lastName: null, firstName: null, taxNumber: null, internalPassportNumber: null, email: null, phone: null };
  let clientAccountId: number | null = null;
  let clientAccount: string | null = null;
  if (q.demandId != null) {
    const [l] = await app.db.select({ accountId: leads.accountId }).from(leads).where(eq(leads.id, q.demandId));
    if (!l) throw notFound('leads.notFound');
    if (l.accountId != null) {
      const a = await accountAsClient(app.db, l.accountId);
      if (a) ({ client, clientAccountId, clientAccount } = a);
    }
  }
  const fields = Object.fromEntries(RESERVATION_FIELDS.filter((f) => f.group !== 'client').map((f) => [f.name, f.type === 'boolean' ? false : null]));
  return {
    ...fields,
    reservationStage: 1,
    bookingDate: today,
    objectId: o?.id ?? null,
    checkIn: q.checkIn ?? null,
    duration: null,
    totalPaymentDeposit: 0,
    finalComission: 0,
    demandId: q.demandId ?? null,
    id: null,
    reservationNumber: '',
    object: o ? { id: o.id, referenceNumber: formatReferenceNumber(o.ref), title: o.title, websiteCode: o.websiteCode } : null,
    client,
    clientAccountId,
    clientAccount,
    demand: await leadOptionText(app.db, q.demandId ?? null, t),
    createdOn: toLocalDateTime(now, app.config.timeZone)!,
    createdBy: null,
    modifiedOn: toLocalDateTime(now, app.config.timeZone)!,
    modifiedBy: null,
    version: 0,
    ...lists(t),
  };
}

/** An account's last name at most (ZAccountFields.lastName). */
const ACCOUNT_NAME_MAX = 200;
const CLIENT_MAX = new Map(RESERVATION_FIELDS.filter((f) => f.group === 'client').map((f) => [f.name, f.max ?? 200]));
/**
 * An account's value within the booking's limit for it. The limits are the account's own, so this
 * only guards: a value over it would be refused by every answer about the booking (a 500, and a
 * booking that could never be opened again).
 */
const clip = (field: ClientField, v: string | null) => (v == null ? null : v.slice(0, CLIENT_MAX.get(field) ?? 200));

/** An account's names and first e-mail and phone, as a booking's client. */
async function accountAsClient(db: Db | Tx, id: number) {
  const [a] = await db
    .select({ id: accounts.id, name: accounts.displayName, lastName: accounts.lastName, firstName: accounts.firstName, companyName: accounts.name, emails: accounts.emails, phones: accounts.phones, taxNumber: accounts.taxNumber, passport: accounts.internalPassportNumber })
    .from(accounts)
    .where(eq(accounts.id, id));
  if (!a) return null;
  // An e-mail is copied whole or not at all: one cut to the booking's length is another address.
  const email = a.emails.find((e) => RESERVATION_EMAIL.test(e) && e.length <= (CLIENT_MAX.get('email') ?? 254)) ?? null;
  return {
    client: {
      lastName: clip('lastName', a.lastName ?? a.companyName ?? a.name ?? null),
      firstName: clip('firstName', a.firstName ?? null),
      taxNumber: clip('taxNumber', a.taxNumber ?? null),
      internalPassportNumber: clip('internalPassportNumber', a.passport ?? null),
      email,
      phone: clip('phone', a.phones[0] ?? null),
    } as Record<ClientField, string | null>,
    clientAccountId: a.id,
    clientAccount: a.name ?? null,
  };
}

/** The other stay of the object sharing a night with [checkIn, checkOut), if any (cancelled stays hold nothing). */
async function overlapping(db: Db | Tx, objectId: number, checkIn: string, checkOut: string, exceptId: number | null) {
  const rows = await db.execute(sql`
    select r.id, r.check_in, r.check_out, r.client_last_name, r.client_first_name, o.reference_number
    from reservations r join objects o on o.id = r.object_id
    where r.object_id = ${objectId} and r.reservation_stage <> ${RESERVATION_CANCELLED}
      and daterange(r.check_in, r.check_out, '[)') && daterange(${checkIn}::date, ${checkOut}::date, '[)')
      ${exceptId != null ? sql`and r.id <> ${exceptId}` : sql``}
    order by r.check_in limit 1`);
  return (rows.rows as Row[])[0];
}

/** A refusal that names the other booking: its number, its client and its nights. */
function doubleBooked(other: Row, culture: TCulture) {
  const params = {
    number: String(other.id),
    client: [other.client_last_name, other.client_first_name].filter(Boolean).join(' '),
    from: dayText(String(other.check_in), culture),
    till: dayText(String(other.check_out), culture),
    ref: formatReferenceNumber(other.reference_number as number),
  };
  return new AppError(400, 'reservations.doubleBooked', params, { checkIn: [{ code: 'reservations.doubleBooked', params }] });
}

const isExclusionViolation = (e: unknown) => {
  for (let c: unknown = e; c && typeof c === 'object'; c = (c as { cause?: unknown }).cause) {
    if ((c as { code?: string }).code === '23P01') return true;
  }
  return false;
};

/**
 * A guest's tax number as the new client account keeps it. It is free text on the booking (guests
 * come from everywhere): a Greek ΑΦΜ goes to the account's ΑΦΜ, any other number under "another country".
 */
function guestTaxNumber(text: string | null) {
  const tax = (text ?? '').trim() || null;
  return tax && !isGreekTaxNumber(tax) ? { taxNumberOfOtherCountry: tax } : { taxNumber: tax };
}

/**
 * POST /api/Reservation/update: creates (no id) or updates with the version guard. Check-out is
 * derived from check-in and nights (or the nights from a check-out sent instead). A stay sharing
 * a night with another booking of the object is refused, naming it; the database's exclusion
 * constraint settles two requests at the same moment the same way.
 */
export async function saveReservation(app: FastifyInstance, caller: Caller, input: unknown, culture: TCulture, t: T) {
  const body = input as TReservationUpdate;
  let stay: { objectId: number; checkIn: string; checkOut: string; id: number | null } | null = null;
  try {
    return await app.db.transaction(async (tx) => {
      let current: ReservationRow | undefined;
      if (body.id != null) {
        [current] = await tx.select().from(reservations).where(eq(reservations.id, body.id)).for('update');
        if (!current) throw notFound('reservations.notFound');
        if (requireVersion(body.version) !== current.version) throw conflict(await getReservation(app, tx, body.id, t, culture));
      }
      const set: Record<string, unknown> = {};
      for (const name of PLAIN_FIELDS) if (body[name] !== undefined) set[name] = body[name];
      if (body.client) for (const [k, c] of Object.entries(CLIENT_COLUMNS)) if (body.client[k] !== undefined) set[c] = body.client[k] === '' ? null : body.client[k];
      if (body.clientAccountId !== undefined) set.clientAccountId = body.clientAccountId;

      // The stay: check-in and nights, or check-in and check-out.
      const checkIn = (set.checkIn !== undefined ? set.checkIn : current?.checkIn) as string | null | undefined;
      if (body.checkOut != null) {
        if (!checkIn) throw fieldError('checkIn', 'validation.required');
        const nights = nightsBetween(checkIn, body.checkOut);
        if (nights <= 0) throw fieldError('checkOut', 'reservations.checkOutBeforeCheckIn');
        if (nights > RESERVATION_MAX_NIGHTS) throw fieldError('checkOut', 'reservations.tooLong', { max: RESERVATION_MAX_NIGHTS });
        if (body.duration != null && body.duration !== nights) throw fieldError('checkOut', 'reservations.checkOutMismatch');
        set.duration = nights;
      }
      if (!current && set.bookingDate === undefined) set.bookingDate = toLocalDateTime(new Date(), app.config.timeZone)!.slice(0, 10);
      const merged = { ...(current ?? {}), ...set } as Record<string, unknown>;
      for (const f of ['objectId', 'checkIn', 'duration'] as const) if (merged[f] == null) throw fieldError(f, 'validation.required');
      // References
      if (set.objectId !== undefined && set.objectId !== current?.objectId) {
        const o = await objectOf(tx, merged.objectId as number, culture);
        if (!o) throw fieldError('objectId', 'reservations.objectNotFound');
        if (!o.forShortRent) throw fieldError('objectId', 'reservations.notShortLet');
      }
      if (set.demandId != null) {
        const [l] = await tx.select({ id: leads.id }).from(leads).where(eq(leads.id, set.demandId as number));
        if (!l) throw fieldError('demandId', 'leads.notFound');
      }
      if (set.clientAccountId != null) {
        const a = await accountAsClient(tx, set.clientAccountId as number);
        if (!a) throw fieldError('clientAccountId', 'reservations.accountNotFound');
        if (!String(merged.clientLastName ?? '').trim()) for (const [k, c] of Object.entries(CLIENT_COLUMNS)) if (merged[c] == null) set[c] = merged[c] = a.client[k as ClientField];
        await tx.update(accounts).set({ isClient: true, isClientDate: new Date() }).where(and(eq(accounts.id, a.clientAccountId), eq(accounts.isClient, false)));
      }
      if (!String(merged.clientLastName ?? '').trim()) throw fieldError('client.lastName', 'validation.required');
      // The third party's share comes out of the agency's commission: more than all of it is a typing error.
      if (Math.round(Number(merged.comission3rdParty ?? 0) * 100) > Math.round(Number(merged.comission ?? 0) * 100)) {
        throw fieldError('comission3rdParty', 'reservations.thirdPartyOverCommission');
      }
      if (body.saveClientAsAccount && merged.clientAccountId == null) {
        // The account's own rules: a value it would refuse could never be saved with it again, and
        // one past its answer's limits would make the account a 500 to open.
        if (String(merged.clientLastName).length > ACCOUNT_NAME_MAX) throw fieldError('client.lastName', 'validation.tooLong', { max: ACCOUNT_NAME_MAX });
        if (merged.clientPhone && !isPhoneList(merged.clientPhone as string)) throw fieldError('client.phone', 'validation.phone');
        if (merged.clientEmail && !isEmailList(merged.clientEmail as string)) throw fieldError('client.email', 'validation.email');
        if (merged.clientPhone && splitList(merged.clientPhone as string).length > MAX_PHONES) throw fieldError('client.phone', 'accounts.tooManyPhones', { max: MAX_PHONES });
        if (merged.clientEmail && splitList(merged.clientEmail as string).length > MAX_EMAILS) throw fieldError('client.email', 'accounts.tooManyEmails', { max: MAX_EMAILS });
        const [a] = await tx
          .insert(accounts)
          .values({
            lastName: merged.clientLastName as string,
            firstName: (merged.clientFirstName as string | null) ?? null,
            // Several written with ';' are several, as the account's form keeps them.
            emails: merged.clientEmail ? splitList(merged.clientEmail as string) : [],
            phones: merged.clientPhone ? splitList(merged.clientPhone as string) : [],
            ...guestTaxNumber(merged.clientTaxNumber as string | null),
            internalPassportNumber: (merged.clientInternalPassportNumber as string | null) ?? null,
            isClient: true,
            isClientDate: new Date(),
            createdBy: caller.user.id,
            modifiedBy: caller.user.id,
          } as never)
          .returning({ id: accounts.id });
        set.clientAccountId = merged.clientAccountId = a!.id;
        await logAction(tx, caller.actor, { action: 'Create', entity: 'Account', entityId: a!.id, message: LOG_MESSAGE.fromReservation, data: { lastName: merged.clientLastName } });
      }

      // No double booking
      const checkOut = new Date(Date.parse(`${merged.checkIn as string}T00:00:00Z`) + (merged.duration as number) * 86400000).toISOString().slice(0, 10);
      // A stay that would end after 31/12/9999 (a mistyped year): no such check-out date.
      if (!/^\d{4}-/.test(checkOut)) throw fieldError('checkIn', 'validation.date');
      const stage = (merged.reservationStage as number | undefined) ?? 1;
      if (stage !== RESERVATION_CANCELLED) {
        stay = { objectId: merged.objectId as number, checkIn: merged.checkIn as string, checkOut, id: current?.id ?? null };
        const other = await overlapping(tx, stay.objectId, stay.checkIn, stay.checkOut, stay.id);
        if (other) throw doubleBooked(other, culture);
      }

      let id = current?.id ?? null;
      if (id == null) {
        const [row] = await tx
          .insert(reservations)
          .values({ ...(set as object), createdBy: caller.user.id, modifiedBy: caller.user.id } as typeof reservations.$inferInsert)
          .returning({ id: reservations.id });
        id = row!.id;
        await logAction(tx, caller.actor, { action: 'Create', entity: LOG_ENTITY, entityId: id, message: `${clientName(merged as never)} ${merged.checkIn as string}`, data: body });
      } else {
        await tx
          .update(reservations)
          .set({ ...(set as object), version: current!.version + 1, modifiedOn: new Date(), modifiedBy: caller.user.id })
          .where(eq(reservations.id, id));
        await logAction(tx, caller.actor, { action: 'Update', entity: LOG_ENTITY, entityId: id, data: body });
      }
      return getReservation(app, tx, id, t, culture);
    });
  } catch (e) {
    // Two requests at the same moment: the exclusion constraint refused the later one.
    if (isExclusionViolation(e) && stay) {
      const s = stay as { objectId: number; checkIn: string; checkOut: string; id: number | null };
      const other = await overlapping(app.db, s.objectId, s.checkIn, s.checkOut, s.id);
      if (other) throw doubleBooked(other, culture);
    }
    throw e;
  }
}

/** DELETE /api/Reservation/{id}: with the activities only it held. */
export async function deleteReservation(caller: Caller, db: Db, id: number) {
  await db.transaction(async (tx) => {
    const [current] = await tx.select({ id: reservations.id, lastName: reservations.clientLastName, checkIn: reservations.checkIn }).from(reservations).where(eq(reservations.id, id)).for('update');
    if (!current) throw notFound('reservations.notFound');
    await deleteActivityLinks(tx, LinkKind.Reservation, id);
    await tx.delete(reservations).where(eq(reservations.id, id));
    await logAction(tx, caller.actor, { action: 'Delete', entity: LOG_ENTITY, entityId: id, message: `${current.lastName} ${current.checkIn}` });
  });
}

const SORT: Record<TReservationSearch['sortBy'], SQL> = {
  checkIn: sql`r.check_in`,
  checkOut: sql`r.check_out`,
  bookingDate: sql`r.booking_date`,
  total: sql`r.total`,
  id: sql`r.id`,
};

/** The date filter's column or range test (0 booking, 1 check-in, 2 check-out, 3 any night of the stay). */
function dateFilter(type: number, from: string | null, till: string | null): SQL | undefined {
  if (!from && !till) return undefined;
  if (type === 3) return sql`daterange(r.check_in, r.check_out, '[)') && daterange(${from}::date, ${till}::date, '[]')`;
  const col = type === 0 ? sql`r.booking_date` : type === 1 ? sql`r.check_in` : sql`r.check_out`;
  return and(from ? sql`${col} >= ${from}::date` : undefined, till ? sql`${col} <= ${till}::date` : undefined);
}

/** A booking's columns as the list (and its file) reads them. */
const rowColumns = (culture: TCulture) => sql`r.id, r.reservation_number_external, r.reservation_stage, r.problem, r.awaiting, r.booking_date::text, r.check_in::text, r.duration,
      r.check_out::text, r.adults, r.children, r.object_id, o.reference_number, ${objectTitle(culture, 'o')} as title, o.website_code, r.client_last_name, r.client_first_name,
      r.client_account_id, r.source_id, r.total::float8, r.total_done, r.payment_to_owner::float8, r.comission::float8, r.comission3rd_party::float8,
      r.final_comission::float8`;

/** A booking's row of the list. */
function reservationItem(r: Row, t: T) {
  const stage = r.reservation_stage as number;
  return {
    id: r.id as number,
    reservationNumber: String(r.id),
    reservationNumberExternal: (r.reservation_number_external as string | null) ?? null,
    reservationStage: stage,
    stage: t(`reservations.stage.${stage}`),
    rowClass: RESERVATION_STAGE_CLASS[stage] ?? '',
    problem: (r.problem as string | null) || null,
    awaiting: (r.awaiting as string | null) || null,
    bookingDate: (r.booking_date as string | null) ?? null,
    checkIn: r.check_in as string,
    duration: r.duration as number,
    checkOut: r.check_out as string,
    adults: (r.adults as number | null) ?? null,
    children: (r.children as number | null) ?? null,
    objectId: r.object_id as number,
    objectReferenceNumber: formatReferenceNumber(r.reference_number as number),
    objectTitle: (r.title as string | null) ?? null,
    objectWebsiteCode: (r.website_code as string | null) ?? null,
    clientDisplayName: [r.client_last_name, r.client_first_name].filter(Boolean).join(' '),
    clientAccountId: (r.client_account_id as number | null) ?? null,
    sourceId: (r.source_id as number | null) ?? null,
    sourceDisplayName: r.source_id != null ? t(`reservations.source.${r.source_id as number}`) : null,
    total: (r.total as number | null) ?? null,
    totalDone: r.total_done as boolean,
    paymentToOwner: (r.payment_to_owner as number | null) ?? null,
    comission: (r.comission as number | null) ?? null,
    comission3rdParty: (r.comission3rd_party as number | null) ?? null,
    finalComission: r.final_comission as number,
  };
}

/** The footer's sums over `x` (a booking, or a kept cell of bookings), rounded to cents as exact text. */
const roundedSums = (stage: SQL, withCancelled: boolean, p = sql`r`) => {
  const summed = withCancelled ? sql`true` : sql`${stage} <> ${RESERVATION_CANCELLED}`;
  const total = (col: string) => sql`round(coalesce(sum(${p}.${sql.raw(col)}) filter (where ${summed}), 0), 2)::text as ${sql.raw(col)}`;
  return sql.join(['total', 'payment_to_owner', 'comission', 'comission3rd_party', 'final_comission'].map(total), sql`, `);
};

/**
 * The days a date holds (years 1 to 9999, as the shared date type): a day computed past them is
 * clamped to the first or the last (JavaScript would write year 10000 as "+010000", and PostgreSQL
 * refuses year 0). Each caller reads a clamped day as a bound no narrower than the one meant.
 */
const FIRST_DAY = '0001-01-01';
const LAST_DAY = '9999-12-31';
const addDays = (day: string, days: number) => {
  const ms = Date.parse(`${day}T00:00:00Z`) + days * 86400000;
  if (ms < Date.parse(`${FIRST_DAY}T00:00:00Z`)) return FIRST_DAY;
  if (ms > Date.parse(`${LAST_DAY}T00:00:00Z`)) return LAST_DAY;
  return new Date(ms).toISOString().slice(0, 10);
};
const monthStart = (day: string) => `${day.slice(0, 8)}01`;
/** The first day of the month after `day`'s, written out (Date.UTC reads years 0-99 as 1900-1999); past December 9999, the last day. */
const nextMonth = (day: string) => {
  const [y, m] = day.split('-').map(Number) as [number, number];
  if (m < 12) return `${day.slice(0, 5)}${String(m + 1).padStart(2, '0')}-01`;
  return y < 9999 ? `${String(y + 1).padStart(4, '0')}-01-01` : LAST_DAY;
};

/**
 * The count and sums from the months kept (migration 0106, decision 101), when the filter is a date
 * range of the booking date, the check-in or the check-out (with stages, or none) holding at least
 * one whole month: the whole months from reservation_totals and its deltas, the days before and
 * after them from the bookings themselves. Any other filter sums the bookings it matches.
 */
function keptSums(f: TReservationSearch, from: string | null, till: string | null, withCancelled: boolean): SQL | undefined {
  if (f.dateFilterType === 3 || !from || !till) return undefined;
  if (f.objectId || f.objectWebsiteCode?.trim() || f.reservationNumber?.replace(/\D/g, '') || f.reservationNumberExternal?.trim() || f.sources.length || f.clientName?.trim()) return undefined;
  // The whole months in [from, till]: from the first that starts on or after `from` to the last that
  // ends on or before `till`. In December 9999 the day after is clamped to its last day (no first of
  // a month): its days are then read from the bookings, and a `from` in it has no whole month after.
  const first = from === monthStart(from) ? from : nextMonth(from);
  const afterLast = addDays(till, 1) === monthStart(addDays(till, 1)) ? addDays(till, 1) : monthStart(till);
  if (first >= afterLast) return undefined;
  const col = f.dateFilterType === 0 ? sql`r.booking_date` : f.dateFilterType === 1 ? sql`r.check_in` : sql`r.check_out`;
  const stages = f.stages.length ? sql`and stage in ${f.stages}` : sql``;
  const rowStages = f.stages.length ? sql`and r.reservation_stage in ${f.stages}` : sql``;
  const cells = (table: SQL) => sql`select stage, n, total, payment_to_owner, comission, comission3rd_party, final_comission from ${table}
      where kind = ${f.dateFilterType} and month >= ${first}::date and month < ${afterLast}::date ${stages}`;
  const days = (lo: string, below: SQL) => sql`select r.reservation_stage, 1, r.total, r.payment_to_owner, r.comission, r.comission3rd_party, r.final_comission
      from reservations r where ${col} >= ${lo}::date and ${col} ${below} ${rowStages}`;
  const parts = [cells(sql`reservation_totals`), cells(sql`reservation_total_deltas`)];
  if (from < first) parts.push(days(from, sql`< ${first}::date`));
  if (afterLast <= till) parts.push(days(afterLast, sql`<= ${till}::date`));
  return sql`
    select coalesce(sum(x.n), 0)::int as n, ${roundedSums(sql`x.stage`, withCancelled, sql`x`)}
    from (${sql.join(parts, sql` union all `)}) x (stage, n, total, payment_to_owner, comission, comission3rd_party, final_comission)`;
}

/**
 * A check-out range bounds the check-in (a stay is 1 to RESERVATION_MAX_NIGHTS nights), a check-in
 * range the check-out, and a range of nights both: added where the list is ordered by that other end, so that the page
 * is found by walking that end's index within the range rather than from its first booking.
 */
function stayBounds(f: TReservationSearch, from: string | null, till: string | null): SQL | undefined {
  // A night of the stay in the range: it starts on or before `till` and ends after `from`.
  if (f.dateFilterType === 3 && f.sortBy === 'checkIn') {
    return and(from ? sql`r.check_in >= ${addDays(from, -RESERVATION_MAX_NIGHTS)}::date` : undefined, till ? sql`r.check_in <= ${till}::date` : undefined);
  }
  if (f.dateFilterType === 3 && f.sortBy === 'checkOut') {
    return and(from ? sql`r.check_out >= ${addDays(from, 1)}::date` : undefined, till ? sql`r.check_out <= ${addDays(till, RESERVATION_MAX_NIGHTS)}::date` : undefined);
  }
  if (f.dateFilterType === 2 && f.sortBy === 'checkIn') {
    return and(from ? sql`r.check_in >= ${addDays(from, -RESERVATION_MAX_NIGHTS)}::date` : undefined, till ? sql`r.check_in <= ${addDays(till, -1)}::date` : undefined);
  }
  if (f.dateFilterType === 1 && f.sortBy === 'checkOut') {
    return and(from ? sql`r.check_out >= ${addDays(from, 1)}::date` : undefined, till ? sql`r.check_out <= ${addDays(till, RESERVATION_MAX_NIGHTS)}::date` : undefined);
  }
  return undefined;
}

/**
 * Matches up to this many are sorted for the page rather than found by walking the sort's index
 * (about 1 ms at full size). Kept low: a common start in a narrow window (1,744 matches of «hm» in
 * three months) is dense in the order, where the walk finds its page at once and sorting them all
 * cost 4 ms (review, decision 117).
 */
const FEW_MATCHES = 600;

/** The bookings numbered `ids`, as the list's rows (in no particular order). */
export async function reservationRows(app: FastifyInstance, ids: number[], t: T, culture: TCulture) {
  const { rows } = await app.db.execute(sql`select ${rowColumns(culture)} from reservations r join objects o on o.id = r.object_id where r.id in ${ids}`);
  return (rows as Row[]).map((r) => reservationItem(r, t));
}

/**
 * POST /api/Reservation/search: the filters, the count, the page and the footer's sums (over every
 * row the filter matches, not only the page; cancelled bookings only when the stage filter picks
 * them) all computed by PostgreSQL. Without a date range the
 * current year applies (spec 9).
 */
export async function searchReservations(app: FastifyInstance, f: TReservationSearch, t: T, culture: TCulture) {
  const { rows, ...found } = await findReservations(app, f, culture, 'rows');
  return { items: rows.map((r) => reservationItem(r, t)), ...found, options: { stages: stageOptions(t), sources: sourceOptions(t), dateFilterTypes: options(RESERVATION_DATE_FILTER_TYPES, 'reservations.dateFilter', t) } };
}

/**
 * The bookings the list's filter matches: their count and sums, and the page asked for, each booking
 * as its row (`rows`) or as its number alone (`ids`: a large list's file reads the rows later, a page at a time).
 */
export async function findReservations(app: FastifyInstance, f: TReservationSearch, culture: TCulture, read: 'rows' | 'ids') {
  const year = toLocalDateTime(new Date(), app.config.timeZone)!.slice(0, 4);
  const noRange = f.startDate === undefined && f.endDate === undefined;
  const from = noRange ? `${year}-01-01` : (f.startDate ?? null);
  const till = noRange ? `${year}-12-31` : (f.endDate ?? null);
  if (from && till && from > till) throw fieldError('endDate', 'reservations.rangeOrder');
  const where: (SQL | undefined)[] = [dateFilter(f.dateFilterType, from, till)];
  if (f.objectId) where.push(sql`r.object_id = ${f.objectId}`);
  const code = f.objectWebsiteCode?.trim();
  if (code) where.push(sql`r.object_id in (select o2.id from objects o2 where lower(o2.website_code) like ${`${escapeLike(code.toLowerCase())}%`})`);
  const number = f.reservationNumber?.replace(/\D/g, '');
  if (number) where.push(Number(number) <= MAX_ID ? sql`r.id = ${Number(number)}` : sql`false`);
  const ext = f.reservationNumberExternal?.trim();
  if (ext) where.push(sql`lower(r.reservation_number_external) like ${`${escapeLike(ext.toLowerCase())}%`}`);
  if (f.sources.length) where.push(sql`r.source_id in ${f.sources}`);
  if (f.stages.length) where.push(sql`r.reservation_stage in ${f.stages}`);
  const name = f.clientName?.trim();
  if (name) where.push(sql`(r.search_text like ${containsPattern(name)} ${((m) => (m ? sql`or ${m}` : sql``))(latinMatch(sql`r.search_text`, name, true))})`);
  const cond = and(...where.filter(Boolean)) ?? sql`true`;

  const dir = f.sortDir === 'asc' ? sql`asc` : sql`desc`;
  // A cancelled booking earns nothing: the sums leave it out (the count keeps it), unless the
  // stage filter asks for cancelled bookings by name.
  const sumsWithCancelled = f.stages.includes(RESERVATION_CANCELLED);
  const sumsRead =
    keptSums(f, from, till, sumsWithCancelled) ??
    sql`
    select count(*)::int as n, ${roundedSums(sql`r.reservation_stage`, sumsWithCancelled)}
    from reservations r where ${cond}`;
  // The page alone is read and then joined to its properties (a page far down read every property
  // before it); ordered by the other end of the stay, the stay's bounds narrow the index walked. The
  // outer LIMIT keeps it a page to db/auto-prepare.ts, planned for its values each time (a generic
  // plan walked every booking).
  const order = sql`${SORT[f.sortBy]} ${dir}${f.sortBy === 'total' ? sql` nulls last` : sql``}, r.id ${dir}`;
  const pageCond = and(cond, stayBounds(f, from, till)) ?? cond;
  const page = (matched: boolean) => sql`
    ${matched ? sql`with m as materialized (select r.* from reservations r where ${cond})` : sql``}
    select ${read === 'ids' ? sql`r.id` : rowColumns(culture)}
    from (select r.* from ${matched ? sql`m` : sql`reservations`} r ${matched ? sql`` : sql`where ${pageCond}`} order by ${order} limit ${f.perPage} offset ${(f.currentPage - 1) * f.perPage}) r
    join objects o on o.id = r.object_id
    order by ${order} limit ${f.perPage}`;
  let totalsResult: Awaited<ReturnType<typeof app.db.execute>>;
  let pageResult: Awaited<ReturnType<typeof app.db.execute>>;
  if (ext) {
    // An external number's prefix matches bookings anywhere in the order (a site's numbers do not
    // follow the stays): walking the sort's index to the page read most of the bookings (20 ms at
    // full size for «HM3»). A few matches are read by the number's index and sorted; many, as before (decision 117).
    totalsResult = await app.db.execute(sumsRead);
    pageResult = await app.db.execute(page(((totalsResult.rows[0] as Row).n as number) <= FEW_MATCHES));
  } else {
    // The count and sums, and the page, side by side on the pool.
    [totalsResult, pageResult] = await Promise.all([app.db.execute(sumsRead), app.db.execute(page(false))]);
  }
  const [totals] = totalsResult.rows as Row[];
  const rows = pageResult.rows as Row[];
  // Exact decimal text, as summed by the database (never through a float).
  const sum = (v: unknown) => String(v);
  return {
    rows,
    totalRows: totals!.n as number,
    sums: {
      total: sum(totals!.total),
      paymentToOwner: sum(totals!.payment_to_owner),
      comission: sum(totals!.comission),
      comission3rdParty: sum(totals!.comission3rd_party),
      finalComission: sum(totals!.final_comission),
    },
    sumsWithCancelled,
    startDate: from,
    endDate: till,
  };
}

/** The object view's reservations: newest stay first (the later booking first on the same nights), each as "12/07/2026 – 19/07/2026 · Client", with its stage. */
export async function reservationsOfObject(db: Db | Tx, objectId: number, culture: TCulture, t: T) {
  const rows = await db
    .select({ id: reservations.id, checkIn: reservations.checkIn, checkOut: reservations.checkOut, last: reservations.clientLastName, first: reservations.clientFirstName, stage: reservations.reservationStage })
    .from(reservations)
    .where(eq(reservations.objectId, objectId))
    // Two stays on the same nights (one cancelled, then booked again): the later booking first.
    .orderBy(sql`${reservations.checkIn} desc, ${reservations.id} desc`)
    .limit(100);
  return rows.map((r) => ({
    id: r.id,
    descr: `${dayText(r.checkIn, culture)} – ${dayText(r.checkOut, culture)} · ${clientName({ clientLastName: r.last, clientFirstName: r.first })}`,
    reservationStage: r.stage,
    stage: t(`reservations.stage.${r.stage}`),
  }));
}

/** The job that adds the bookings' kept sums' deltas into them (decision 101). */
export const RESERVATION_TOTALS_FOLD_JOB = 'reservations.totalsFold';
export async function foldReservationTotals(app: FastifyInstance): Promise<void> {
  await app.db.transaction(async (tx) => {
    await tx.execute(sql`select crm_reservation_totals_fold()`);
  });
}

/** Merging accounts: the duplicate's bookings become the kept account's. */
export async function moveReservations(tx: Tx, keptId: number, duplicateId: number) {
  await tx.update(reservations).set({ clientAccountId: keptId }).where(eq(reservations.clientAccountId, duplicateId));
}
