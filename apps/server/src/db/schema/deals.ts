import { index, integer, pgTable, serial, smallint, uniqueIndex, type AnyPgColumn, type PgColumnBuilderBase } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { DEAL_FIELDS } from '@crm/contract';
import { accounts } from './records.ts';
import { columnOf, objects } from './objects.ts';
import { leads } from './leads.ts';
import { versionedStamps } from './columns.ts';
import { partOf, linkTo } from './column-types.ts';

/** Type and stage are always set; the other described fields may be empty. */
const required = (c: PgColumnBuilderBase) => (c as unknown as { notNull: () => PgColumnBuilderBase }).notNull();
const describedColumns = Object.fromEntries(DEAL_FIELDS.map((d) => [d.name, d.required ? required(columnOf(d)) : columnOf(d)])) as Record<string, PgColumnBuilderBase>;

/** Deals: the sales and rentals the agency brings to a contract, stage by stage. */
export const deals = pgTable(
  'deals',
  {
    id: serial('id').primaryKey(),
    /** The property (the API refuses to delete a property a deal names; set null is a last resort). */
    objectId: linkTo('object_id', () => objects.id),
    /** The lead (client demand) the deal came from. */
    demandId: linkTo('demand_id', () => leads.id),
    ...describedColumns,
    ...versionedStamps(),
  },
  (t) => {
    const c = t as unknown as Record<string, AnyPgColumn>;
    // One index per filter and sort of the list and the board; ties broken by id (newest first).
    return [
      index('deals_created_on_idx').on(t.createdOn, t.id),
      index('deals_stage_idx').on(c.dealStage!, t.createdOn, t.id),
      // The board: each stage's most recently changed deals.
      index('deals_stage_modified_idx').on(c.dealStage!, t.modifiedOn, t.id),
      index('deals_type_idx').on(c.dealType!, t.createdOn, t.id),
      index('deals_deposit_idx').on(c.dateOfDeposit!, t.id),
      index('deals_end_date_idx').on(c.endDate!, t.id),
      // deals_closed_end_date_idx in SQL (0054): the closed deals by closing date (the agents' results).
      index('deals_shown_price_idx').on(sql`coalesce(${c.price!}, ${c.askingPrice!})`, t.id),
      index('deals_object_idx').on(t.objectId),
      index('deals_demand_idx').on(t.demandId),
    ];
  },
);

/** The described columns of deals, by field name. */
export const dealColumns = deals as unknown as Record<string, AnyPgColumn>;

/** The people of a deal: seller, buyer, lawyer, notary, civil engineer, assigned employee, partner agency. */
export const dealParties = pgTable(
  'deal_parties',
  {
    id: serial('id').primaryKey(),
    dealId: partOf('deal_id', () => deals.id),
    accountId: partOf('account_id', () => accounts.id),
    relation: smallint('relation').notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    uniqueIndex('deal_parties_uq').on(t.dealId, t.relation, t.accountId),
    // INCLUDE (deal_id) in SQL (0030), and deals (id) INCLUDE (created_on): a party's name pages its deals from the indexes alone.
    index('deal_parties_account_idx').on(t.accountId, t.relation),
  ],
);
