import { z } from 'zod';
import { bodyPaging, byId, listAnswer, moreColumns, oneOf, sorting, ZChangeKey, ZRecordStamps, ZDate, ZId, ZIdString, ZMoreValues, ZSaveKey, ZText, optionLists } from './common.ts';
import type { CallSchemas } from './call.ts';
import { zodOfField } from './objects.ts';
import { DEAL_FIELDS, DEAL_MAX_PARTIES, DEAL_MORE_COLUMNS, DEAL_RELATIONS, DEAL_SORTS, DEAL_STAGES, DEAL_TYPES } from './deal-fields.ts';
import { DEAL_BOARD_MAX, DEAL_BOARD_STEP } from './constants.ts';

export const ZDealType = oneOf(DEAL_TYPES);
export const ZDealStage = oneOf(DEAL_STAGES);
export const ZDealRelation = oneOf(DEAL_RELATIONS);

/** Every described field of a deal; type and stage must be one of their lists (an unknown stage is a 400). */
export const ZDealFields = z.object({
  ...(Object.fromEntries(DEAL_FIELDS.map((d) => [d.name, zodOfField(d)])) as Record<string, z.ZodTypeAny>),
  dealType: ZDealType,
  dealStage: ZDealStage,
});

/** A party of a deal: an account in a relation (seller, buyer, lawyer, notary, civil engineer, assigned, partner). */
export const ZDealParty = z.object({ accountId: z.number().int(), account: z.string(), relation: z.number().int() });
export type TDealParty = z.infer<typeof ZDealParty>;

export const ZDeal = z.object({
  id: z.number().int().nullable(),
  dealType: z.number().int(),
  dealStage: z.number().int(),
  objectId: z.number().int().nullable(),
  objectReferenceNumber: z.string().nullable(),
  objectTitle: z.string().nullable(),
  accounts: z.array(ZDealParty),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  askingPrice: z.number().nullable(),
  price: z.number().nullable(),
  deposit: z.number().nullable(),
  commission: z.number().nullable(),
  dateOfDeposit: z.string().nullable(),
  contractDurationMonths: z.number().int().nullable(),
  rentStart: z.string().nullable(),
  rentExpiration: z.string().nullable(),
  notes: z.string().nullable(),
  demandId: z.number().int().nullable(),
  /** The linked lead as one line. */
  demand: z.string().nullable(),
  ...ZRecordStamps,
});
export type TDeal = z.infer<typeof ZDeal>;

export const ZDealOptions = optionLists('dealTypeOptions', 'dealStageOptions', 'dealAccountRelationOptions');
/**
 * What a save or a move did beyond the deal, for the banner: closing a rental puts its tenant on
 * the property (info), or says why not, or that someone else lets it for some of those days (warning).
 */
export const ZDealNotice = z.object({ kind: z.enum(['info', 'warning']), text: z.string() });
export type TDealNotice = z.infer<typeof ZDealNotice>;

/**
 * GET /api/Deal/add (a blank deal, stored on save) and GET /api/Deal/edit/{id}. `onDelete`: what
 * deleting the deal would do to the tenants it put on properties (said in the delete's confirmation).
 */
export const ZDealAnswer = ZDeal.extend(ZDealOptions.shape).extend({ onDelete: z.array(ZDealNotice) });
export type TDealAnswer = z.infer<typeof ZDealAnswer>;
/** DELETE /api/Deal/{id}: done, and what it did to the tenants the deal had put on properties. */
export const ZDealDeleted = z.object({ ok: z.literal(true), notices: z.array(ZDealNotice) });
/** POST /api/Deal/update and /api/Deal/move: the deal as stored, with its notices. */
export const ZDealSaved = ZDealAnswer.extend({ notices: z.array(ZDealNotice) });
export type TDealSaved = z.infer<typeof ZDealSaved>;

/** GET /api/Deal/add: optionally from an object (its owners as sellers, its price asked) or a lead (its client as buyer). */
export const ZDealAddQuery = z.object({
  objectId: ZIdString.optional(),
  demandId: ZIdString.optional(),
});

/** A party row as sent on save: a row without an account is dropped (spec). */
export const ZDealPartyInput = z.object({ accountId: ZId.nullable().optional(), relation: ZDealRelation });

/** POST /api/Deal/update: without id it creates the deal; with id it carries the version it was based on. */
export const ZDealUpdate = ZDealFields.partial().extend({
  ...ZSaveKey,
  objectId: ZId.nullable().optional(),
  demandId: ZId.nullable().optional(),
  accounts: z.array(ZDealPartyInput).max(DEAL_MAX_PARTIES * 2).optional(),
});
export type TDealUpdate = z.infer<typeof ZDealUpdate>;

/**
 * POST /api/Deal/move: the board's drag of a deal to another stage, with the version guard, and what
 * the stage needs (DEAL_STAGE_NEEDS) when the deal has not got it yet.
 */
const dealField = <V>(name: string) => ((ZDealFields.shape as Record<string, z.ZodTypeAny>)[name] as unknown as z.ZodType<V>).optional();
export const ZDealMove = z.object({
  ...ZChangeKey,
  dealStage: ZDealStage,
  deposit: dealField<number | null>('deposit'),
  dateOfDeposit: dealField<string | null>('dateOfDeposit'),
  endDate: dealField<string | null>('endDate'),
});
export type TDealMove = z.infer<typeof ZDealMove>;

/** The list's and the board's filters (spec: POST /api/Deal/search). */
export const ZDealFilter = z.object({
  /** A deal type, or null / 0 for all (an unknown type is a 400). */
  dealType: oneOf([0, ...DEAL_TYPES]).nullable().optional(),
  stages: z.array(ZDealStage).max(DEAL_STAGES.length).default([]),
  depositFrom: ZDate.nullable().optional(),
  depositTill: ZDate.nullable().optional(),
  endDateFrom: ZDate.nullable().optional(),
  endDateTill: ZDate.nullable().optional(),
  /** Any party's last name (across scripts: Greeklish finds Greek). */
  lastName: ZText(100).nullable().optional(),
  /** The object's reference number ("0042" or "#0042"). */
  object: ZText(50).nullable().optional(),
  /** Beyond the spec: one object, one account (a party), one lead. */
  objectId: ZId.nullable().optional(),
  accountId: ZId.nullable().optional(),
  demandId: ZId.nullable().optional(),
  /** The agent: the employee in charge of the deal (a party of relation "assigned"), as the agents' results count deals. */
  agentId: ZId.nullable().optional(),
});
export type TDealFilter = z.infer<typeof ZDealFilter>;

export const ZDealSearch = ZDealFilter.extend({
  ...bodyPaging(1000000),
  ...sorting(DEAL_SORTS, 'createdOn'),
  /** The further columns the list shows (DEAL_MORE_COLUMNS), each answered in the row's `more`. */
  more: moreColumns(DEAL_MORE_COLUMNS),
});
export type TDealSearch = z.infer<typeof ZDealSearch>;

/** The spec's party columns of a deal row: the first account of each relation, by name, and its id. */
const PARTY_COLUMNS = ['seller', 'buyer', 'lawer', 'notary', 'civilEngeneer', 'assigned'] as const;
type TPartyColumn = (typeof PARTY_COLUMNS)[number];
const partyColumns = Object.fromEntries(PARTY_COLUMNS.flatMap((n) => [[n, z.string()], [`${n}Id`, z.number().int().nullable()]])) as {
  [K in TPartyColumn]: z.ZodString;
} & { [K in TPartyColumn as `${K}Id`]: z.ZodNullable<z.ZodNumber> };

const rowFields = { dealType: true, dealStage: true, objectId: true, objectReferenceNumber: true, askingPrice: true, price: true, dateOfDeposit: true, endDate: true, createdOn: true } as const;
/** A row of the list: the deal's own fields, its type and stage in the reader's language, its parties. */
export const ZDealRow = ZDeal.pick(rowFields).extend({
  id: z.number().int(),
  type: z.string(),
  stage: z.string(),
  /** The row's style class: the stage's name lowercased without spaces. */
  rowClass: z.string(),
  /** The place the property is in, its own name in the reader's language ("Γλυφάδα"), without its parents. */
  objectPlace: z.string().nullable(),
  ...partyColumns,
  /** Every party, for rows with more than one per relation. */
  parties: z.array(ZDealParty),
  /** The further columns asked for (`more`), by field name: an amount or a number, a date (YYYY-MM-DD), a text. */
  more: ZMoreValues,
});
export type TDealRow = z.infer<typeof ZDealRow>;
/**
 * The list's totals over every deal the filter matches (not the page), exact decimal texts
 * ("1450000.00") computed by PostgreSQL: sales and rentals apart (a sale price and a monthly rent do
 * not add up), each with how many deals it sums; the agency's commission over both. A deal's amount
 * is its final price, else its asking price, as the list shows it.
 */
export const ZDealSums = z.object({
  saleCount: z.number().int(),
  saleTotal: z.string(),
  rentCount: z.number().int(),
  rentTotal: z.string(),
  commission: z.string(),
});
export type TDealSums = z.infer<typeof ZDealSums>;
export const ZDealSearchAnswer = listAnswer(ZDealRow).extend({
  sums: ZDealSums,
  /** Whether the sums count cancelled deals: only when the stage filter picks the cancelled stage (they earn nothing). */
  sumsWithCancelled: z.boolean(),
  options: optionLists('types', 'stages', 'relations'),
});

/** POST /api/Deal/download: Deals.xlsx, every deal the filter matches in the list's order. */
export const ZDealDownload = ZDealFilter.extend(sorting(DEAL_SORTS, 'createdOn'));
export type TDealDownload = z.infer<typeof ZDealDownload>;
/** At most this many deals in one Deals.xlsx (an agency's whole history fits many times over). */
export const DEAL_DOWNLOAD_MAX = 100_000;

/** POST /api/Deal/board: deals by stage (the newest of each stage, up to `perStage`), with each stage's count and total. */
export const ZDealBoardQuery = ZDealFilter.omit({ stages: true }).extend({
  perStage: z.number().int().min(1).max(DEAL_BOARD_MAX).default(DEAL_BOARD_STEP),
});
/** A deal on the board: the deal's own fields, with what the stages ask for (DEAL_STAGE_NEEDS: the board asks only for what is missing). */
const cardFields = { version: true, dealType: true, dealStage: true, objectId: true, objectReferenceNumber: true, objectTitle: true, price: true, askingPrice: true, deposit: true, dateOfDeposit: true, endDate: true } as const;
export const ZDealCard = ZDeal.pick(cardFields).extend({ id: z.number().int(), parties: z.array(ZDealParty) });
export type TDealCard = z.infer<typeof ZDealCard>;
export const ZDealBoardAnswer = z.object({
  columns: z.array(
    z.object({
      stage: z.number().int(),
      name: z.string(),
      className: z.string(),
      count: z.number().int(),
      /**
       * Sums of the final (else asking) prices of every deal of the stage, exact, as decimal strings:
       * sales and rentals apart, as a sale price and a monthly rent do not add up.
       */
      saleTotal: z.string(),
      rentTotal: z.string(),
      cards: z.array(ZDealCard),
    }),
  ),
  options: optionLists('types', 'relations'),
});
export type TDealBoard = z.infer<typeof ZDealBoardAnswer>;

/** The deals' calls and their schemas (decision 057); their methods and paths: `deals.resource.ts`. */
export const DEAL_API = {
  search: { body: ZDealSearch, answer: ZDealSearchAnswer },
  download: { body: ZDealDownload },
  add: { query: ZDealAddQuery, answer: ZDealAnswer },
  edit: byId(ZDealAnswer),
  update: { body: ZDealUpdate, answer: ZDealSaved },
  move: { body: ZDealMove, answer: ZDealSaved },
  board: { body: ZDealBoardQuery, answer: ZDealBoardAnswer },
  remove: byId(ZDealDeleted),
} satisfies Record<string, CallSchemas>;
