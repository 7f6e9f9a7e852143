// The leads' (client demands') fields, described once (no runtime dependencies: the web imports it
// as '@crm/contract/lead-fields' without zod). The lead's zod schema, its table columns, the
// single-field editor's rules and the lead form are made from LEAD_FIELDS (decision 009).
import type { TFieldDescriptionOf } from './field-description.ts';

export const LEAD_GROUPS = ['main', 'services', 'budget', 'wishes', 'texts'] as const;
export type TLeadGroup = (typeof LEAD_GROUPS)[number];
export type TLeadFieldDescription = TFieldDescriptionOf<TLeadGroup>;

/** Lead stages: 1 new, 2 contacted, 3 offering, 4 viewings, 5 negotiating, 6 won, 7 lost, 8 on hold. */
export const LEAD_STAGES = [1, 2, 3, 4, 5, 6, 7, 8] as const;
/** A lead in one of these stages is closed (the Clients list's red mark is for leads not closed). */
export const LEAD_CLOSED_STAGES = [6, 7] as const;
/** The stage a lead takes when a deal made from it closes. */
export const LEAD_STAGE_WON = 6;
/** The first stage: every new lead's, until someone (or something done for it) moves it on. */
export const LEAD_STAGE_NEW = 1;
/** The stage a new lead takes when a viewing is arranged for it. */
export const LEAD_STAGE_VIEWINGS = 4;
/** The stage a lead takes when a deal is made from it (from New, or from Viewings). */
export const LEAD_STAGE_NEGOTIATING = 5;
/** Priorities: 1 low, 2 normal, 3 high, 4 urgent. */
export const LEAD_PRIORITIES = [1, 2, 3, 4] as const;
/** Services of a lead, in the spec's order (the list's type column and service filter). */
export const LEAD_SERVICES = ['forPurchase', 'forRent', 'forShortRent', 'forSell', 'forRentOut'] as const;
export type TLeadService = (typeof LEAD_SERVICES)[number];
/** The service filter's values: 1 purchase, 2 rent, 3 short rent, 4 sell, 5 rent out (0 all). */
export const LEAD_SERVICE_VALUES: Record<TLeadService, number> = { forPurchase: 1, forRent: 2, forShortRent: 3, forSell: 4, forRentOut: 5 };

/** The budgets a lead keeps, each a range (min ≤ max): to buy, to rent, to rent short. */
const LEAD_BUDGET_RANGES = [
  ['purchaseBudgetRangeMin', 'purchaseBudgetRangeMax'],
  ['rentBudgetRangeMin', 'rentBudgetRangeMax'],
  ['shortRentBudgetRangeMin', 'shortRentBudgetRangeMax'],
] as const;

const d = (name: string, type: TLeadFieldDescription['type'], group: TLeadGroup, extra: Partial<TLeadFieldDescription> = {}): TLeadFieldDescription => ({
  name,
  type,
  group,
  ...extra,
});

export const LEAD_FIELDS: readonly TLeadFieldDescription[] = [
  d('source', 'select', 'main', { list: 'sourceList', references: 'accounts' }),
  d('stage', 'select', 'main', { list: 'stageList' }),
  d('priority', 'select', 'main', { list: 'priorityList' }),
  d('startDate', 'date', 'main'),
  d('endDate', 'date', 'main'),
  ...LEAD_SERVICES.map((s) => d(s, 'boolean', 'services')),
  ...LEAD_BUDGET_RANGES.flat().map((n) => d(n, 'currency', 'budget')),
  // What the client looks for (matching): where, what, how big.
  d('locationId', 'location', 'wishes'),
  d('objectSubTypes', 'multi-select', 'wishes', { list: 'objectSubTypes' }),
  d('areaMin', 'area', 'wishes', { max: 1e7 }),
  d('areaMax', 'area', 'wishes', { max: 1e7 }),
  d('bedroomsMin', 'number', 'wishes', { integer: true, min: 0, max: 50 }),
  /** Features the client asks for (names of the object's yes/no features). */
  d('features', 'flag-enum', 'wishes', { list: 'features' }),
  d('description', 'textarea', 'texts', { max: 20000 }),
];

/** What the leads list (and Leads.xlsx) sorts by. */
export const LEAD_SORTS = ['createdOn', 'name', 'stage', 'priority'] as const;

/** Pairs that must be in order (min ≤ max, start ≤ end). */
export const LEAD_RANGES = [...LEAD_BUDGET_RANGES, ['areaMin', 'areaMax'], ['startDate', 'endDate']] as const;

/** The described fields the leads list's row holds already (ZLeadRow: the stage, the priority, the services as its type, the budgets as its range). */
export const LEAD_ROW_FIELDS: ReadonlySet<string> = new Set(['stage', 'priority', ...LEAD_SERVICES, ...LEAD_BUDGET_RANGES.flat()]);
/**
 * The leads list's further columns (its column chooser): every described field the row does not hold
 * already, as the deals list offers its own (DEAL_MORE_COLUMNS). The list-valued ones are answered
 * by their names in the reader's language (the source, the place, the property types, the features).
 */
export const leadMoreColumns = (fields: readonly TLeadFieldDescription[]): string[] => fields.filter((d) => !LEAD_ROW_FIELDS.has(d.name)).map((d) => d.name);
export const LEAD_MORE_COLUMNS: readonly string[] = leadMoreColumns(LEAD_FIELDS);
