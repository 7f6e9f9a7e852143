// The deals' fields, described once (no runtime dependencies: the web imports it as
// '@crm/contract/deal-fields' without zod). The deal's zod schema, its table columns and the deal
// form are made from DEAL_FIELDS (decision 009); the lists below are the deal's select lists.
import { classesByValue, type TFieldDescriptionOf } from './field-description.ts';

export const DEAL_GROUPS = ['main', 'money', 'dates', 'rent', 'texts'] as const;
export type TDealGroup = (typeof DEAL_GROUPS)[number];
export type TDealFieldDescription = TFieldDescriptionOf<TDealGroup>;

/** Deal types: 1 rental (the spec's dealType = 1, with rent start and expiration), 2 sale. Sale first in lists. */
export const DEAL_TYPE_RENTAL = 1;
export const DEAL_TYPE_SALE = 2;
export const DEAL_TYPES = [DEAL_TYPE_SALE, DEAL_TYPE_RENTAL] as const;

/**
 * Stages, in the order a deal moves on (the board's columns): 1 negotiation, 2 deposit paid,
 * 3 legal and technical checks, 4 contract signing, 5 closed, 6 cancelled. A deal in stage 5 is
 * closed: as a sale it counts as sold (object, buyer, specialists), as a rental as rented.
 */
export const DEAL_STAGES = [1, 2, 3, 4, 5, 6] as const;
export const DEAL_STAGE_CLOSED = 5;
export const DEAL_STAGE_CANCELLED = 6;
/** Row and card style classes: the stage's English name lowercased without spaces (spec: rows styled by stage). */
export const DEAL_STAGE_CLASS = classesByValue(['negotiation', 'depositpaid', 'checks', 'contractsigning', 'closed', 'cancelled']);

/**
 * Who an account is in a deal: 1 seller (the landlord in a rental), 2 buyer (the tenant), 3 lawyer,
 * 4 notary, 5 civil engineer, 6 assigned (the agency's employee in charge), 7 partner agency.
 */
export const DEAL_RELATIONS = [1, 2, 3, 4, 5, 6, 7] as const;
export const DEAL_RELATION = { seller: 1, buyer: 2, lawer: 3, notary: 4, civilEngeneer: 5, assigned: 6, partner: 7 } as const;
export type TDealPartyColumn = keyof typeof DEAL_RELATION;
/** The parties the list shows as columns, in the spec's order (field names as the spec spells them). */
export const DEAL_LIST_PARTIES = ['seller', 'buyer', 'lawer', 'notary', 'civilEngeneer', 'assigned'] as const;
/** The specialists whose numberOfSoldObjects a closed sale counts: lawyer, notary, civil engineer, partner agency. */
export const DEAL_SPECIALIST_RELATIONS = [3, 4, 5, 7] as const;
/** At most this many parties on one deal. */
export const DEAL_MAX_PARTIES = 30;

const d = (name: string, type: TDealFieldDescription['type'], group: TDealGroup, extra: Partial<TDealFieldDescription> = {}): TDealFieldDescription => ({
  name,
  type,
  group,
  ...extra,
});

/** Euro and cent, within the column's numeric(14, 2); never negative. */
const money: Partial<TDealFieldDescription> = { step: 0.01, min: 0, max: 999999999999.99 };

export const DEAL_FIELDS: readonly TDealFieldDescription[] = [
  d('dealType', 'select', 'main', { list: 'dealTypeOptions', required: true }),
  d('dealStage', 'select', 'main', { list: 'dealStageOptions', required: true }),
  d('askingPrice', 'currency', 'money', money),
  d('price', 'currency', 'money', money),
  /** Beyond the spec: the deposit paid (a sale's earnest money, a rental's security deposit), and the agency's commission. */
  d('deposit', 'currency', 'money', money),
  d('commission', 'currency', 'money', money),
  d('dateOfDeposit', 'date', 'dates'),
  d('startDate', 'date', 'dates'),
  d('endDate', 'date', 'dates'),
  /** Sales only. */
  d('contractDurationMonths', 'number', 'dates', { integer: true, min: 0, max: 600 }),
  /** Rentals (dealType 1) only. */
  d('rentStart', 'date', 'rent'),
  d('rentExpiration', 'date', 'rent'),
  d('notes', 'textarea', 'texts', { max: 20000 }),
];

/** The described fields the deals list's row holds already (ZDealRow; the type and stage as their names). */
export const DEAL_ROW_FIELDS: ReadonlySet<string> = new Set(['dealType', 'dealStage', 'askingPrice', 'price', 'dateOfDeposit', 'endDate']);
/**
 * The deals list's further columns (its column chooser): every described field the row does not hold
 * already, as the property search offers its own (OBJECT_MORE_COLUMNS). A field added to the
 * description is offered here without a line of its own.
 */
export const dealMoreColumns = (fields: readonly TDealFieldDescription[]): string[] => fields.filter((d) => !DEAL_ROW_FIELDS.has(d.name)).map((d) => d.name);
export const DEAL_MORE_COLUMNS: readonly string[] = dealMoreColumns(DEAL_FIELDS);

/**
 * The texts that name the deposit, which a sale and a rental name differently: a sale's is earnest
 * money (Greek «αρραβώνας», Russian «задаток»), a rental's a security deposit («εγγύηση», «залог»).
 * Each key has a sale's and a rental's form beside it (`fields.deal.deposit` →
 * `fields.deal.sale.deposit`, `fields.deal.rental.deposit`); the key itself names both, for where
 * no one type is meant (a list of every type, the action log).
 */
export const DEAL_TYPED_TEXTS = ['fields.deal.deposit', 'fields.deal.dateOfDeposit', 'deals.stage.2', 'deals.ui.col.dateOfDeposit', 'deals.ui.filter.depositFrom', 'deals.ui.filter.depositTill'] as const;

/** A text's key as a deal of this type words it (see DEAL_TYPED_TEXTS); the key itself for any other key or no type. */
export function dealTextKey(key: string, dealType: number | null | undefined): string {
  if ((dealType !== DEAL_TYPE_SALE && dealType !== DEAL_TYPE_RENTAL) || !(DEAL_TYPED_TEXTS as readonly string[]).includes(key)) return key;
  const last = key.lastIndexOf('.');
  return `${key.slice(0, last)}.${dealType === DEAL_TYPE_RENTAL ? 'rental' : 'sale'}${key.slice(last)}`;
}

/** Fields only a sale has, and only a rental has. */
export const DEAL_SALE_ONLY = ['contractDurationMonths'] as const;
export const DEAL_RENTAL_ONLY = ['rentStart', 'rentExpiration'] as const;

/**
 * What a stage needs before a deal is moved to it on the board, asked in the same move (the server
 * refuses the move without it): deposit paid, the deposit's amount and date; contract signing, the
 * date the contract is signed (`endDate`, which a deal closed later keeps); closed, the same date
 * when the deal comes straight to it without having passed the signing.
 */
export const DEAL_STAGE_NEEDS: Readonly<Record<number, readonly ('deposit' | 'dateOfDeposit' | 'endDate')[]>> = {
  2: ['deposit', 'dateOfDeposit'],
  4: ['endDate'],
  5: ['endDate'],
};

/** Pairs that must be in order (start ≤ end). */
export const DEAL_RANGES = [
  ['startDate', 'endDate'],
  ['rentStart', 'rentExpiration'],
] as const;

/** What the deal list sorts by (POST /api/Deal/search `sortBy`). */
export const DEAL_SORTS = ['createdOn', 'dateOfDeposit', 'endDate', 'price', 'stage'] as const;
