import { sql } from 'drizzle-orm';
import { check, date, index, jsonb, numeric, pgTable, primaryKey, serial, smallint, text } from 'drizzle-orm/pg-core';
import { accounts } from './records.ts';
import { objects } from './objects.ts';
import { versionedStamps } from './columns.ts';
import { partOf } from './column-types.ts';

/**
 * A property's written mandate (εντολή ανάθεσης, law 4072/2012 art. 197-204; decision 079, 0076):
 * simple or exclusive, its dates and one extension, the price and commission agreed, the named
 * exceptions ({ name, note }[]), and the days its 30- and 10-day alerts were made (once each).
 */
export const objectMandates = pgTable(
  'object_mandates',
  {
    id: serial('id').primaryKey(),
    objectId: partOf('object_id', () => objects.id),
    kind: text('kind').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    extendedUntil: date('extended_until', { mode: 'string' }),
    extensions: smallint('extensions').notNull().default(0),
    askingPrice: numeric('asking_price', { precision: 14, scale: 2, mode: 'number' }),
    commissionPercent: numeric('commission_percent', { precision: 5, scale: 2, mode: 'number' }),
    commissionAmount: numeric('commission_amount', { precision: 14, scale: 2, mode: 'number' }),
    exceptions: jsonb('exceptions').notNull().default(sql`'[]'::jsonb`),
    notes: text('notes'),
    alert30On: date('alert_30_on', { mode: 'string' }),
    alert10On: date('alert_10_on', { mode: 'string' }),
    ...versionedStamps(),
  },
  (t) => [
    index('object_mandates_object_idx').on(t.objectId, t.startDate),
    index('object_mandates_ends_idx').on(sql`(coalesce(${t.extendedUntil}, ${t.endDate}))`),
    check('object_mandates_kind', sql`${t.kind} IN ('simple', 'exclusive')`),
  ],
);

/** The owners who gave a mandate (their accounts), with their tax office (ΔΟΥ), which accounts do not hold. */
export const objectMandateOwners = pgTable(
  'object_mandate_owners',
  {
    mandateId: partOf('mandate_id', () => objectMandates.id),
    accountId: partOf('account_id', () => accounts.id),
    position: smallint('position').notNull().default(0),
    taxOffice: text('tax_office'),
  },
  (t) => [primaryKey({ name: 'object_mandate_owners_pk', columns: [t.mandateId, t.accountId] }), index('object_mandate_owners_account_idx').on(t.accountId)],
);
