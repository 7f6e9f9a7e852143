import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, jsonb, pgTable, serial, smallint, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { deals } from './deals.ts';
import { versionedStamps } from './columns.ts';
import { linkTo, tsz } from './column-types.ts';

const cents = (name: string) => bigint(name, { mode: 'number' });

/**
 * Commission invoices, receipts and credit notes (decision 085, 0083): a draft until issued, then
 * numbered in its series and final; amounts in integer cents; myDATA's answer kept on it.
 * `counterpart` is { vatNumber, name, street, city, postalCode, country }; `lines` the lines as issued.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    dealId: linkTo('deal_id', () => deals.id),
    kind: text('kind').notNull(),
    status: text('status').notNull().default('draft'),
    series: text('series').notNull(),
    number: integer('number'),
    issueDate: date('issue_date', { mode: 'string' }),
    counterpart: jsonb('counterpart').notNull(),
    lines: jsonb('lines').notNull(),
    netCents: cents('net_cents').notNull(),
    vatCents: cents('vat_cents').notNull(),
    grossCents: cents('gross_cents').notNull(),
    paymentMethod: smallint('payment_method').notNull(),
    creditOf: integer('credit_of').references((): AnyPgColumn => invoices.id, { onDelete: 'restrict' }),
    issuerVatNumber: text('issuer_vat_number'),
    issuerBranch: integer('issuer_branch'),
    mark: bigint('mark', { mode: 'bigint' }),
    uid: text('uid'),
    authenticationCode: text('authentication_code'),
    qrUrl: text('qr_url'),
    errors: jsonb('errors').notNull().default(sql`'[]'::jsonb`),
    transmittedOn: tsz('transmitted_on'),
    ...versionedStamps(),
  },
  (t) => [
    uniqueIndex('invoices_series_number_idx').on(t.series, t.number).where(sql`${t.number} IS NOT NULL`),
    index('invoices_status_idx').on(t.status, t.id),
    index('invoices_deal_idx').on(t.dealId),
    index('invoices_credit_of_idx').on(t.creditOf),
    check('invoices_kind', sql`${t.kind} IN ('invoice', 'receipt', 'credit')`),
  ],
);

/** Each series' last number, taken in the issuing transaction (a rollback gives it back: no gaps). */
export const invoiceSeries = pgTable('invoice_series', { series: text('series').primaryKey(), lastNumber: integer('last_number').notNull() });

/** The agency's tax data and myDATA credentials (one row; the key sealed, lib/secret-box.ts). */
export const invoiceSettings = pgTable('invoice_settings', {
  id: integer('id').primaryKey().default(1),
  vatNumber: text('vat_number'),
  branch: integer('branch').notNull().default(0),
  mydataUserId: text('mydata_user_id'),
  mydataKey: text('mydata_key'),
  modifiedOn: tsz('modified_on').notNull().defaultNow(),
  version: integer('version').notNull().default(1),
});
