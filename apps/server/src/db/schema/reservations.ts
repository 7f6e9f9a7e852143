import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, numeric, pgTable, serial, smallint, text } from 'drizzle-orm/pg-core';
import { accounts } from './records.ts';
import { objects } from './objects.ts';
import { leads } from './leads.ts';
import { versionedStamps } from './columns.ts';
import { partOf, linkTo } from './column-types.ts';

const money = (name: string) => numeric(name, { precision: 14, scale: 2, mode: 'number' });

/**
 * Short-let reservations (bookings of an object for some nights). The check-out, the deposit
 * (prepayment) and the final commission are computed by PostgreSQL, never typed. An exclusion
 * constraint (migration 0021, btree_gist) keeps two stays that are not cancelled from sharing a
 * night of the same object, whatever the timing of the requests.
 */
export const reservations = pgTable(
  'reservations',
  {
    id: serial('id').primaryKey(),
    reservationStage: smallint('reservation_stage').notNull().default(1),
    bookingDate: date('booking_date', { mode: 'string' }),
    objectId: partOf('object_id', () => objects.id),
    checkIn: date('check_in', { mode: 'string' }).notNull(),
    /** Nights. */
    duration: integer('duration').notNull(),
    checkOut: date('check_out', { mode: 'string' })
      .notNull()
      .generatedAlwaysAs(sql`check_in + duration`),
    adults: smallint('adults'),
    children: smallint('children'),
    arrivalTimePlanned: text('arrival_time_planned'),
    arrivalTimeActual: text('arrival_time_actual'),
    demandId: linkTo('demand_id', () => leads.id),
    /** The client's account, when linked (picked, or saved from the booking). */
    clientAccountId: linkTo('client_account_id', () => accounts.id),
    clientLastName: text('client_last_name').notNull(),
    clientFirstName: text('client_first_name'),
    clientTaxNumber: text('client_tax_number'),
    clientInternalPassportNumber: text('client_internal_passport_number'),
    clientEmail: text('client_email'),
    clientPhone: text('client_phone'),
    sourceId: smallint('source_id'),
    reservationNumberExternal: text('reservation_number_external'),
    externalLink: text('external_link'),
    problem: text('problem'),
    awaiting: text('awaiting'),
    total: money('total'),
    totalDone: boolean('total_done').notNull().default(false),
    prepaymentCash: money('prepayment_cash'),
    prepaymentCashDone: boolean('prepayment_cash_done').notNull().default(false),
    prepaymentBank: money('prepayment_bank'),
    prepaymentBankDone: boolean('prepayment_bank_done').notNull().default(false),
    prepaymentInvoice: money('prepayment_invoice'),
    totalPaymentDeposit: money('total_payment_deposit')
      .notNull()
      .generatedAlwaysAs(sql`coalesce(prepayment_cash, 0) + coalesce(prepayment_bank, 0) + coalesce(prepayment_invoice, 0)`),
    restCash: money('rest_cash'),
    restCashDone: boolean('rest_cash_done').notNull().default(false),
    restBank: money('rest_bank'),
    restBankDone: boolean('rest_bank_done').notNull().default(false),
    restInvoice: money('rest_invoice'),
    paymentToOwner: money('payment_to_owner'),
    ownerPayments: boolean('owner_payments').notNull().default(false),
    paymentType: smallint('payment_type'),
    ownerPaymentDate: date('owner_payment_date', { mode: 'string' }),
    ownerPaymentNotes: text('owner_payment_notes'),
    comission: money('comission'),
    comission3rdParty: money('comission3rd_party'),
    finalComission: money('final_comission')
      .notNull()
      .generatedAlwaysAs(sql`coalesce(comission, 0) - coalesce(comission3rd_party, 0)`),
    /** The client's names, e-mail and phone in the search normal form, with the names' Latin skeleton. */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        sql`public.crm_reservation_search_text(client_last_name, client_first_name, client_email, client_phone)`,
      ),
    ...versionedStamps(),
  },
  (t) => [
    index('reservations_check_in_idx').on(t.checkIn, t.id),
    index('reservations_check_out_idx').on(t.checkOut, t.id),
    index('reservations_booking_date_idx').on(t.bookingDate, t.id),
    index('reservations_object_idx').on(t.objectId, t.checkIn),
    index('reservations_stage_idx').on(t.reservationStage, t.checkIn),
    index('reservations_source_idx').on(t.sourceId, t.checkIn),
    index('reservations_client_account_idx').on(t.clientAccountId),
    index('reservations_demand_idx').on(t.demandId),
    index('reservations_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
  ],
);
