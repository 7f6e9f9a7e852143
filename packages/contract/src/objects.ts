import { z } from 'zod';
import {
  bodyPaging,
  byId,
  listAnswer,
  MAX_AMOUNT_NUMBER,
  moreColumns,
  oneOf,
  queryPaging,
  sorting,
  ZAgencyDetails,
  ZAmountInput,
  ZChangeKey,
  ZChangeStamps,
  ZDate,
  ZDateTime,
  ZDateTimeInput,
  ZId,
  ZIdParam,
  ZIdString,
  ZOk,
  ZPickerItem,
  ZPickerSearch,
  ZSaveKey,
  ZSelectOption,
  optionLists,
  ZText,
  ZVersionQuery,
} from './common.ts';
import type { CallSchemas } from './call.ts';
import { MAP_CIRCLE, OBJECT_FIELDS, OBJECT_MORE_COLUMNS, OBJECT_RELATIONS, type TFieldDescriptionOf } from './object-fields.ts';
export { OBJECT_MORE_COLUMNS } from './object-fields.ts';
import { CULTURES } from './constants.ts';

const NUMERIC_LIMITS: Record<string, { min: number; max: number }> = {
  number: { min: -1e12, max: 1e12 },
  distance: { min: 0, max: 1e7 },
  'distance-km': { min: 0, max: 1e5 },
  currency: { min: 0, max: MAX_AMOUNT_NUMBER },
  area: { min: 0, max: 1e9 },
};

/** A number with at most two decimals (what numeric(14,2) keeps), as typed: 1.23 yes, 1.234 no. */
const hasCents = (v: number) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6;

/** The zod type of one described field (every value may be null: not set). */
export function zodOfField(d: TFieldDescriptionOf): z.ZodTypeAny {
  switch (d.type) {
    case 'text':
      return ZText(d.max ?? 200).nullable();
    case 'textarea':
      return ZText(d.max ?? 20000).nullable();
    case 'number':
    case 'distance':
    case 'distance-km':
    case 'currency':
    case 'area': {
      const lim = NUMERIC_LIMITS[d.type]!;
      let n = z.number().min(d.min ?? lim.min).max(d.max ?? lim.max);
      if (d.integer || d.type === 'distance') n = n.int();
      // An amount keeps cents: one with more decimals is refused, never rounded where nobody sees it.
      if (d.type === 'currency' && (!d.step || d.step === 0.01)) return n.refine(hasCents, { message: 'validation.cents' }).nullable();
      if (d.step) n = n.multipleOf(d.step);
      return n.nullable();
    }
    case 'date':
      return ZDate.nullable();
    case 'money':
      return ZAmountInput.nullable();
    case 'date-time':
      return ZDateTimeInput.nullable();
    case 'boolean':
      return z.boolean();
    case 'boolNullable':
      return z.boolean().nullable();
    case 'select':
    case 'enum':
      return d.references ? ZId.nullable() : z.number().int().min(1).max(32767).nullable();
    case 'location':
      return ZId.nullable();
    case 'multi-select':
      return z.array(z.number().int().min(1).max(32767)).max(50);
    case 'flag-enum':
      return z.array(z.string().max(100)).max(100);
  }
}

/**
 * The described fields as one object schema, each checked as its description says. Their names are
 * data, so the type reads them by name (unknown); typed so, a schema extending it keeps its own
 * properties' types (`id: number`), which a shape indexed by string would swallow.
 */
export const describedFields = (fields: readonly TFieldDescriptionOf[]) =>
  z.object(Object.fromEntries(fields.map((d) => [d.name, zodOfField(d)]))) as unknown as z.ZodObject<Record<never, never>, z.core.$loose> & { shape: Record<string, z.ZodTypeAny> };

/** Every described field of an object, as edited (GET /api/object/edit, POST /api/object/update). */
export const ZObjectFields = describedFields(OBJECT_FIELDS);
export type TObjectFields = Record<string, unknown>;

const ZRefItem = z.object({ id: z.number().int(), descr: z.string() });
/**
 * A viewing on the object's page: its number, day and time (agency time, null while not set), the
 * client, and what the client made of this object there (its result, in the reader's language) and
 * said of it (`comment`, null when none). `descr` is the same in one line, without the date, for readers that only show text.
 */
/**
 * A booking on the object's page: `descr` is its nights and guest in one line; its stage as a number
 * and in the reader's language, so that two stays on the same nights, one of them cancelled, do not
 * read as a double booking.
 */
export const ZObjectReservationItem = ZRefItem.extend({ reservationStage: z.number().int(), stage: z.string() });
export type TObjectReservationItem = z.infer<typeof ZObjectReservationItem>;
export const ZObjectViewingItem = ZRefItem.extend({ dateOfViewing: ZDateTime.nullable(), client: z.string().nullable(), result: z.string().nullable(), comment: z.string().nullable() });
export type TObjectViewingItem = z.infer<typeof ZObjectViewingItem>;

/** An object–account link (contact, owner, tenant …). */
export const ZObjectAccount = z.object({
  objectId: ZId,
  accountId: ZId,
  account: z.string().optional(),
  relation: oneOf(OBJECT_RELATIONS),
  relationName: z.string().optional(),
  startDate: ZDate.nullable().optional(),
  endDate: ZDate.nullable().optional(),
  price: z.number().min(0).max(MAX_AMOUNT_NUMBER).nullable().optional(),
  /** 0 the last day of the month, -n n days before it, 1..31 that day of the month. */
  rentPaymentDay: z.number().int().min(-27).max(31).nullable().optional(),
});
export type TObjectAccount = z.infer<typeof ZObjectAccount>;
export const ZObjectAccountKey = z.object({ objectId: ZId, accountId: ZId, relation: z.number().int().min(1).max(100).optional() });

/** A photo of the object: its file, the original's pixel size (when read) and bytes (the enlarged photo's "Open original" says them). */
export const ZObjectImage = z.object({ id: z.number().int(), name: z.string(), width: z.number().int().nullable(), height: z.number().int().nullable(), size: z.number().int() });

/** The object as shown and edited. */
export const ZRealtyObject = ZObjectFields.extend({
  id: z.number().int(),
  referenceNumber: z.string(),
  /** The type and subtype, and the location path, as text in the reader's language. */
  type: z.string(),
  location: z.string(),
  createdOn: z.string(),
  createdBy: z.string().nullable(),
  createdByAccountId: z.number().int().nullable(),
  modifiedOn: z.string(),
  modifiedBy: z.string().nullable(),
  lastUpdate: z.string().nullable(),
  published: z.boolean(),
  publishError: z.string().nullable(),
  rented: z.boolean(),
  sold: z.boolean(),
  hasKey: z.boolean(),
  images: z.array(ZObjectImage),
  /** Ids of uploaded files to attach on save, comma-joined. */
  imagesNew: z.string().nullable().optional(),
  version: z.number().int(),
});
export type TRealtyObject = z.infer<typeof ZRealtyObject> & Record<string, unknown>;

export const ZObjectSelectLists = optionLists('objectTypes', 'objectSubTypes', 'accessFrom', 'orientation', 'floorsType', 'framesType', 'energyClass', 'zone', 'heatingMedium', 'heating');
export type TObjectSelectLists = z.infer<typeof ZObjectSelectLists>;

/** GET /api/object/edit/{id} */
export const ZObjectEditAnswer = z.object({
  object: ZRealtyObject,
  objectSelectLists: ZObjectSelectLists,
  objectAccounts: z.array(ZObjectAccount),
  objectAccountRelationSelectList: z.array(ZSelectOption),
});

/** GET /api/object/view/{idOrRef} */
export const ZObjectViewAnswer = ZRealtyObject.extend({
  accounts: z.array(ZRefItem),
  leads: z.array(ZRefItem),
  viewings: z.array(ZObjectViewingItem),
  deals: z.array(ZRefItem),
  reservations: z.array(ZObjectReservationItem),
  contacts: z.array(ZObjectAccount),
  objectSelectLists: ZObjectSelectLists,
  objectAccountRelationSelectList: z.array(ZSelectOption),
});

/** POST /api/object/update: the fields plus id and the version they were based on. */
export const ZObjectUpdate = ZObjectFields.partial().extend({
  ...ZChangeKey,
  /** The photos in their order (ids of files already on the object, or newly uploaded). */
  imagesExisting: z.array(ZId).max(500).optional(),
  imagesNew: z.string().max(5000).nullable().optional(),
});

/** POST /api/object/discard: an object opened with Add and left untouched is removed (discarded: false when it stays). */
/** GET /api/object/add: a blank object; with ownerId (from an account's page) that account is linked to it as its owner. */
export const ZObjectAddQuery = z.object({ ownerId: ZIdString.optional() });
export const ZObjectDiscard = z.object({ id: ZId });
export const ZObjectDiscardAnswer = z.object({ discarded: z.boolean() });

/** The map circle's radius, checked where a circle is set. */
export const ZMapCircleRadius = z.number().int().min(MAP_CIRCLE.min).max(MAP_CIRCLE.max).multipleOf(MAP_CIRCLE.step);

/** POST /api/object: the objects list. */
export const OBJECT_SORTS = ['createdOn', 'createdBy', 'referenceNumber', 'type', 'location', 'owner', 'modifiedOn', 'modifiedBy'] as const;
export const ZObjectListQuery = z.object({ ...queryPaging(1000000), ...sorting(OBJECT_SORTS, 'createdOn') });
export const ZObjectRow = z.object({
  id: z.number().int(),
  referenceNumber: z.string(),
  type: z.string(),
  location: z.string(),
  owner: z.string().nullable(),
  ownerId: z.number().int().nullable(),
  ...ZChangeStamps,
});
export type TObjectRow = z.infer<typeof ZObjectRow>;
export const ZObjectListAnswer = listAnswer(ZObjectRow);

export const ZObjectSearchRow = z.object({
  id: z.number().int(),
  referenceNumber: z.string(),
  title: z.string().nullable(),
  type: z.string(),
  location: z.string(),
  area: z.number().nullable(),
  forSale: z.boolean(),
  forRent: z.boolean(),
  forShortRent: z.boolean(),
  salePrice: z.number().nullable(),
  rentPrice: z.number().nullable(),
  shortRentPrice: z.number().nullable(),
  owner: z.string().nullable(),
  ownerId: z.number().int().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  /** The first photo's id, for a thumbnail. */
  imageId: z.number().int().nullable(),
  /** The further columns asked for (`more`), by field name: a choice as its name in the reader's language, a number, a yes/no. */
  more: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
});

/** POST /api/object/search */
export const ZObjectSearch = z.object({
  forSale: z.boolean().default(false),
  forRent: z.boolean().default(false),
  forShortRent: z.boolean().default(false),
  locationId: ZId.nullable().optional(),
  priceMin: z.number().min(0).max(MAX_AMOUNT_NUMBER).nullable().optional(),
  priceMax: z.number().min(0).max(MAX_AMOUNT_NUMBER).nullable().optional(),
  areaMin: z.number().min(0).max(1e9).nullable().optional(),
  areaMax: z.number().min(0).max(1e9).nullable().optional(),
  /** At least this many bedrooms ("3+"). */
  bedroomsMin: z.number().int().min(0).max(100).nullable().optional(),
  showOnMap: z.boolean().default(false),
  /** The employee account that created the objects. */
  createdBy: ZId.nullable().optional(),
  createdByText: z.string().max(200).nullable().optional(),
  ...bodyPaging(1000000),
  /** The further columns the list shows (OBJECT_MORE_COLUMNS), each answered in the row's `more`. */
  more: moreColumns(OBJECT_MORE_COLUMNS),
});
export type TObjectSearch = z.infer<typeof ZObjectSearch>;
/** POST /api/object/download: Properties.xlsx, every property the search's filters match, newest first. */
export const ZObjectDownload = ZObjectSearch.omit({ perPage: true, currentPage: true, showOnMap: true, more: true });
export type TObjectDownload = z.infer<typeof ZObjectDownload>;
/** At most this many properties in one Properties.xlsx (the whole of a large agency's stock). */
export const OBJECT_DOWNLOAD_MAX = 100_000;
export type TObjectSearchRow = z.infer<typeof ZObjectSearchRow>;
export const ZObjectSearchAnswer = listAnswer(ZObjectSearchRow);

/** GET /api/object/searchByRefNumOrTitle?searchStr=&options=no|STR */
export const ZObjectRefSearchQuery = z.object({
  ...ZPickerSearch,
  options: z.enum(['no', 'STR']).default('no'),
});
export const ZObjectRefSearchAnswer = z.object({ items: z.array(ZPickerItem.extend({ referenceNumber: z.string() })) });

/** Locations: GET /api/location/search?searchStr= */
export const ZLocationSearchQuery = z.object(ZPickerSearch);
export const ZLocationSearchAnswer = z.object({ items: z.array(z.object({ id: z.number().int(), text: z.string() })) });
export const ZTopLocationsAnswer = z.object({ locations: z.array(z.object({ id: z.number().int(), text: z.string(), objects: z.number().int() })) });

/**
 * One loan of a key (decision 014): who held it, given away on, received back on (null: not back
 * yet), and who recorded it last and when (agency time). A key's newest loan is its current one.
 */
export const ZObjectKeyLoan = z.object({
  id: z.number().int(),
  accountId: z.number().int().nullable(),
  account: z.string().nullable(),
  givenAway: ZDate.nullable(),
  received: ZDate.nullable(),
  recordedBy: z.string().nullable(),
  recordedOn: ZDateTime,
  /** A correction of the loan (POST /api/ObjectKeys/loan) is guarded by it. */
  version: z.number().int(),
});
export type TObjectKeyLoan = z.infer<typeof ZObjectKeyLoan>;
/** A key's newest loan as its list row carries it: the last holder, even after the holder was cleared. */
export const ZObjectKeyLastLoan = ZObjectKeyLoan.pick({ accountId: true, account: true, givenAway: true, received: true });

/** Keys held by the agency. */
export const ZObjectKey = z.object({
  id: z.number().int(),
  objectId: z.number().int(),
  objectReferenceNumber: z.string(),
  /** The property's title in the reader's language (its Russian one on a Russian screen), null when it has none. */
  objectTitle: z.string().nullable(),
  accountId: z.number().int().nullable(),
  account: z.string().nullable(),
  received: z.string().nullable(),
  givenAway: z.string().nullable(),
  description: z.string().nullable(),
  version: z.number().int(),
  lastLoan: ZObjectKeyLastLoan.nullable(),
  /**
   * The keys list searched by a holder (`holder`): the newest loan of the key to someone of that
   * name, current or past, so the row can say why the key was found. Absent otherwise.
   */
  heldBy: ZObjectKeyLastLoan.nullable().optional(),
});
export type TObjectKey = z.infer<typeof ZObjectKey>;
/** GET /api/ObjectKeys/edit/{id} and the save's answer: the key with its lending history, newest first. */
export const ZObjectKeyAnswer = ZObjectKey.extend({ history: z.array(ZObjectKeyLoan) });
export type TObjectKeyAnswer = z.infer<typeof ZObjectKeyAnswer>;
export const ZObjectKeyListQuery = z.object({
  referenceNumber: z.string().max(20).default(''),
  /** One property's keys (its page's card): by its id, as the number's prefix would take #10000–#10009 for #1000 too. */
  objectId: ZIdString.optional(),
  /** Anyone who ever held the key, now or before: a name (any script, Greeklish too), phone or e-mail fragment. */
  holder: ZText(100).default(''),
  ...queryPaging(1000000, 10),
});
export const ZObjectKeyListAnswer = listAnswer(ZObjectKey);
/** POST /api/ObjectKeys/edit: a new key (no id, objectId given) or a change (id and version). */
export const ZObjectKeyEdit = z.object({
  ...ZSaveKey,
  objectId: ZId,
  accountId: ZId.nullable().optional(),
  received: ZDate.nullable().optional(),
  givenAway: ZDate.nullable().optional(),
  description: ZText(2000).nullable().optional(),
  /**
   * Lend again: this save starts a new loan even when its holder and given-away date are those of
   * the newest one (the same person takes the key again the day it came back).
   */
  newLoan: z.boolean().optional(),
});
/**
 * POST /api/ObjectKeys/loan: one loan of a key's history corrected (decision 014): its holder and
 * its two dates, based on the loan's version. Answers the key with its history.
 */
export const ZObjectKeyLoanEdit = z.object({
  ...ZChangeKey,
  accountId: ZId.nullable(),
  givenAway: ZDate.nullable(),
  received: ZDate.nullable(),
});
export type TObjectKeyLoanEdit = z.infer<typeof ZObjectKeyLoanEdit>;
/** DELETE /api/ObjectKeys/loan/{id}?version=: a loan recorded by mistake, based on its version. */
export const ZObjectKeyLoanDeleteQuery = ZVersionQuery;
export const ZObjectIdOrRefParam = z.object({ idOrRef: z.string().min(1).max(30) });
export { ZIdString as ZObjectIdString };

/**
 * GET /api/object/sheet/{idOrRef}?culture=&address=: the property sheet an agent hands out, in the
 * sheet's language (not necessarily the reader's). `address=1` adds the street address, which the
 * sheet otherwise never carries.
 */
export const ZObjectSheetQuery = z.object({ culture: z.enum(CULTURES).optional(), address: z.enum(['0', '1']).optional() });
export type TObjectSheetQuery = z.infer<typeof ZObjectSheetQuery>;
const ZSheetService = z.enum(['sale', 'rent', 'shortRent']);
/**
 * What a sheet prints, every text ready in the sheet's language: built from the same allow-list of
 * columns as the public site (no owner, tenants, notes, keys, commission, nor the address unless asked).
 */
export const ZObjectSheetAnswer = z.object({
  id: ZId,
  culture: z.enum(CULTURES),
  /** The sheet's own words (headings, "Ref."), in its language. */
  labels: z.record(z.string(), z.string()),
  agency: ZAgencyDetails,
  ref: z.string(),
  title: z.string(),
  type: z.string(),
  place: z.string(),
  address: z.string().nullable(),
  /** Each price offered: its service's name, the amount, the amount before a discount, "per month". */
  prices: z.array(z.object({ service: ZSheetService, label: z.string(), price: z.string(), was: z.string().nullable(), per: z.string().nullable() })),
  sharedExpenses: z.string().nullable(),
  facts: z.array(z.object({ key: z.string(), label: z.string(), value: z.string() })),
  featureGroups: z.array(z.object({ key: z.string(), title: z.string(), items: z.array(z.string()) })),
  description: z.string(),
  /** The photos' file ids, in the property's order (the first is the main one). */
  photos: z.array(ZId),
  agent: z.object({ name: z.string(), phone: z.string().nullable(), email: z.string().nullable() }).nullable(),
});
export type TObjectSheetAnswer = z.infer<typeof ZObjectSheetAnswer>;

/** The objects' calls and their schemas (decision 057); their methods and paths: `objects.resource.ts`. */
export const OBJECT_API = {
  list: { body: ZObjectListQuery, answer: ZObjectListAnswer },
  add: { query: ZObjectAddQuery, answer: ZRealtyObject },
  discard: { body: ZObjectDiscard, answer: ZObjectDiscardAnswer },
  edit: byId(ZObjectEditAnswer),
  update: { body: ZObjectUpdate, answer: ZRealtyObject },
  view: { params: ZObjectIdOrRefParam, answer: ZObjectViewAnswer },
  sheet: { params: ZObjectIdOrRefParam, query: ZObjectSheetQuery, answer: ZObjectSheetAnswer },
  remove: byId(ZOk),
  download: { body: ZObjectDownload },
  search: { body: ZObjectSearch, answer: ZObjectSearchAnswer },
  searchByRefNumOrTitle: { query: ZObjectRefSearchQuery, answer: ZObjectRefSearchAnswer },
} satisfies Record<string, CallSchemas>;

/** The calls of an object's contacts (owners, tenants and the other people of a property) (decision 057). */
export const OBJECT_ACCOUNT_API = {
  add: { body: ZObjectAccount, answer: ZObjectAccount },
  update: { body: ZObjectAccount, answer: ZObjectAccount },
  remove: { body: ZObjectAccountKey, answer: ZOk },
} satisfies Record<string, CallSchemas>;

/** The keys register's calls and their schemas (decision 057). */
export const OBJECT_KEY_API = {
  list: { query: ZObjectKeyListQuery, answer: ZObjectKeyListAnswer },
  edit: byId(ZObjectKeyAnswer),
  update: { body: ZObjectKeyEdit, answer: ZObjectKeyAnswer },
  updateLoan: { body: ZObjectKeyLoanEdit, answer: ZObjectKeyAnswer },
  removeLoan: { params: ZIdParam, query: ZObjectKeyLoanDeleteQuery, answer: ZObjectKeyAnswer },
  remove: byId(ZOk),
} satisfies Record<string, CallSchemas>;

/** The places' calls (decision 057): the location picker's suggestions, the places with the most objects. */
export const LOCATION_API = {
  search: { query: ZLocationSearchQuery, answer: ZLocationSearchAnswer },
  top: { answer: ZTopLocationsAnswer },
} satisfies Record<string, CallSchemas>;
