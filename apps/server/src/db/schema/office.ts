import { boolean, check, index, integer, numeric, pgTable, serial, smallint, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { userRef } from './platform.ts';
import { versionedStamps } from './columns.ts';
import { tsz } from './column-types.ts';

/**
 * The document forms library: a named form with a description; its files are rows of `files`
 * with parent_type = LinkKind.Document.
 */
export const documents = pgTable(
  'documents',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    ...versionedStamps(),
  },
  (t) => [index('documents_name_idx').on(sql`public.crm_search_norm(${t.name})`, t.id)],
);

/**
 * The agency's details for its public site (decision 022): one row (id 1), made by migration 0035.
 * A detail not set is null; the public pages show nothing for it.
 */
export const siteSettings = pgTable(
  'site_settings',
  {
    id: smallint('id').primaryKey().default(1),
    name: text('name'),
    phone: text('phone'),
    email: text('email'),
    address: text('address'),
    /** The source account of the leads the public site's enquiry form makes (accounts.id, set null when it goes: 0047). */
    enquirySourceId: integer('enquiry_source_id'),
    /** The viewing sheet's details (decision 044, 0055): the registry number (Αρ. Μητρώου Μεσιτών / ΓΕΜΗ) and the ΑΦΜ. */
    licence: text('licence'),
    taxNumber: text('tax_number'),
    /** The fee terms the sheet states, before VAT: a percentage of the price on a sale, months of rent on a letting. */
    saleFeePercent: numeric('sale_fee_percent', { precision: 5, scale: 2, mode: 'number' }),
    rentFeeMonths: numeric('rent_fee_months', { precision: 4, scale: 2, mode: 'number' }),
    /** The agency's face (0072): its name in Greek (`name` is the one in Latin letters), the logo's stored file, web address, tax office (ΔΟΥ). */
    nameEl: text('name_el'),
    logoName: text('logo_name'),
    website: text('website'),
    taxOffice: text('tax_office'),
    /** The CRM's public address: links are built on it, instead of PUBLIC_URL, when set. */
    publicUrl: text('public_url'),
    /** When the first administrator's set-up was done (null: the shell offers it). */
    setupDoneOn: tsz('setup_done_on'),
    /** Publishing needs a mandate in force (decision 079, 0076): the server refuses it without one. */
    mandateRequiredToPublish: boolean('mandate_required_to_publish').notNull().default(false),
    modifiedOn: tsz('modified_on').notNull().defaultNow(),
    modifiedBy: userRef('modified_by'),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    check('site_settings_one_row', sql`${t.id} = 1`),
    check('site_settings_sale_fee_range', sql`${t.saleFeePercent} > 0 AND ${t.saleFeePercent} <= 100`),
    check('site_settings_rent_fee_range', sql`${t.rentFeeMonths} > 0 AND ${t.rentFeeMonths} <= 12`),
  ],
);
