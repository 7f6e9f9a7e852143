import { z } from 'zod';
import { bodyPaging, byId, listAnswer, MAX_AMOUNT_NUMBER, moreColumns, sorting, ZChangeKey, ZRecordStamps, ZDate, ZId, ZIdParam, ZMoreValues, ZOk, ZPickerAnswer, ZPickerSearch, optionLists } from './common.ts';
import type { CallSchemas } from './call.ts';
import { describedFields } from './objects.ts';
import { LEAD_FIELDS, LEAD_MORE_COLUMNS, LEAD_SORTS } from './lead-fields.ts';

/** Every described field of a lead (GET /api/lead/get, POST /api/lead/update). */
export const ZLeadFields = describedFields(LEAD_FIELDS);

export const ZLeadObject = z.object({ objectId: z.number().int(), objectReferenceNumber: z.string(), title: z.string().nullable().optional() });

export const ZLead = ZLeadFields.extend({
  id: z.number().int(),
  accountId: z.number().int().nullable(),
  /** The client's name. */
  account: z.string().nullable(),
  /** The client is one of the agency's employees (who may be a client too: the screen says so). */
  accountIsEmploye: z.boolean(),
  /** The lead as one line: services, budget, client. */
  descr: z.string(),
  location: z.string().nullable(),
  objects: z.array(ZLeadObject),
  ...ZRecordStamps,
});
export type TLeadObject = z.infer<typeof ZLeadObject>;
/** The lead as answered: the fixed part typed, the described fields by name. */
export type TLead = z.infer<typeof ZLead>;

export const ZLeadLists = optionLists('sourceList', 'stageList', 'priorityList', 'objectSubTypeList', 'featureList');
/** GET /api/lead/get/{id} and /api/lead/view/{id} */
export const ZLeadAnswer = ZLead.extend(ZLeadLists.shape);

/** POST /api/lead/add: optionally for an account. */
export const ZLeadAdd = z.object({ accountId: ZId.nullable().optional() });
export const ZLeadAddAnswer = z.object({ id: z.number().int() });
/** POST /api/lead/discard: a lead opened with Add and left untouched is removed (discarded: false when it stays). */
export const ZLeadDiscard = z.object({ id: ZId });
export const ZLeadDiscardAnswer = z.object({ discarded: z.boolean() });

/** POST /api/lead/update: the fields plus id and the version they were based on. */
export const ZLeadUpdate = ZLeadFields.partial().extend({
  ...ZChangeKey,
  accountId: ZId.nullable().optional(),
  /** The offered objects, in order (replaces the list when given). */
  objects: z.array(z.object({ objectId: ZId })).max(500).optional(),
});

/** The leads list's filter: what the list and Leads.xlsx pick by. */
export const ZLeadFilter = z.object({
  /** 0 all, 1 purchase, 2 rent, 3 short rent, 4 sell, 5 rent out */
  service: z.number().int().min(0).max(5).default(0),
  sources: z.array(ZId).max(200).default([]),
  stages: z.array(z.number().int().min(1).max(100)).max(50).default([]),
  priorities: z.array(z.number().int().min(1).max(100)).max(50).default([]),
  startDate: ZDate.nullable().optional(),
  endDate: ZDate.nullable().optional(),
  budgetRangeMin: z.number().min(0).max(MAX_AMOUNT_NUMBER).nullable().optional(),
  budgetRangeMax: z.number().min(0).max(MAX_AMOUNT_NUMBER).nullable().optional(),
  lastName: z.string().max(100).nullable().optional(),
  /** The agent: an employee assigned to the lead, as the agents' results count leads. */
  agentId: ZId.nullable().optional(),
});
export type TLeadFilter = z.infer<typeof ZLeadFilter>;
/** POST /api/lead/search */
export const ZLeadSearch = ZLeadFilter.extend({
  ...bodyPaging(1000000),
  ...sorting(LEAD_SORTS, 'createdOn'),
  /** The further columns the list shows (LEAD_MORE_COLUMNS), each answered in the row's `more`. */
  more: moreColumns(LEAD_MORE_COLUMNS),
});
export type TLeadSearch = z.infer<typeof ZLeadSearch>;
/** POST /api/lead/download: Leads.xlsx of every lead the list's filter matches, in the list's order. */
export const ZLeadDownload = ZLeadFilter.extend(sorting(LEAD_SORTS, 'createdOn'));
export type TLeadDownload = z.infer<typeof ZLeadDownload>;
/** At most this many leads in one Leads.xlsx. */
export const LEAD_DOWNLOAD_MAX = 100_000;
export const ZLeadRow = z.object({
  id: z.number().int(),
  name: z.string(),
  accountId: z.number().int().nullable(),
  /** purchase, rent, shortRent, sell, rentOut, else other */
  type: z.string(),
  budgetRange: z.string(),
  stage: z.number().int().nullable(),
  priority: z.number().int().nullable(),
  createdOn: z.string(),
  /** The further columns asked for (`more`), by field name: an amount or a number, a date (YYYY-MM-DD), a text (the source's and the place's names). */
  more: ZMoreValues,
});
export type TLeadRow = z.infer<typeof ZLeadRow>;
export const ZLeadSearchAnswer = listAnswer(ZLeadRow).extend({
  options: optionLists('serviceList', 'sourceList', 'stageList', 'priorityList'),
});

/** GET /api/lead/searchQuick?searchStr= */
export const ZLeadQuickQuery = z.object(ZPickerSearch);
export const ZLeadQuickAnswer = ZPickerAnswer;

/** POST /api/lead/addObject, /api/lead/removeObject: one offered object. */
export const ZLeadObjectChange = z.object({ leadId: ZId, objectId: ZId });
export const ZLeadObjectsAnswer = z.object({ objects: z.array(ZLeadObject), version: z.number().int() });

/** Matching: objects that fit a lead (GET /api/lead/{id}/matches), leads an object fits (GET /api/object/{id}/matchingLeads). */
export const ZMatchQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });
export const ZLeadMatch = z.object({
  objectId: z.number().int(),
  referenceNumber: z.string(),
  title: z.string().nullable(),
  type: z.string(),
  location: z.string().nullable(),
  price: z.number().nullable(),
  area: z.number().nullable(),
  bedrooms: z.number().int().nullable(),
  score: z.number().int(),
  /** Why it fits or where it falls short, in the reader's language. */
  reasons: z.array(z.object({ text: z.string(), good: z.boolean() })),
  /** Added, or its price dropped, since the lead's matches were last looked at. */
  isNew: z.boolean(),
});
export const ZLeadMatchesAnswer = z.object({ items: z.array(ZLeadMatch), seenOn: z.string().nullable() });
export const ZObjectMatch = z.object({
  leadId: z.number().int(),
  accountId: z.number().int().nullable(),
  descr: z.string(),
  score: z.number().int(),
  reasons: z.array(z.object({ text: z.string(), good: z.boolean() })),
});
export const ZObjectMatchesAnswer = z.object({ items: z.array(ZObjectMatch) });
export const ZNotSuitable = z.object({ objectId: ZId, notSuitable: z.boolean() });

/** The leads' calls and their schemas (decision 057); their methods and paths: `leads.resource.ts`. */
export const LEAD_API = {
  search: { body: ZLeadSearch, answer: ZLeadSearchAnswer },
  download: { body: ZLeadDownload },
  add: { body: ZLeadAdd.optional(), answer: ZLeadAddAnswer },
  discard: { body: ZLeadDiscard, answer: ZLeadDiscardAnswer },
  get: byId(ZLeadAnswer),
  view: byId(ZLeadAnswer),
  update: { body: ZLeadUpdate, answer: ZLeadAnswer },
  remove: byId(ZOk),
  addObject: { body: ZLeadObjectChange, answer: ZLeadObjectsAnswer },
  removeObject: { body: ZLeadObjectChange, answer: ZLeadObjectsAnswer },
  matches: { params: ZIdParam, query: ZMatchQuery, answer: ZLeadMatchesAnswer },
  matchesSeen: byId(ZOk),
  notSuitable: { params: ZIdParam, body: ZNotSuitable, answer: ZOk },
  forObject: { params: ZIdParam, query: ZMatchQuery, answer: ZObjectMatchesAnswer },
  searchQuick: { query: ZLeadQuickQuery, answer: ZLeadQuickAnswer },
} satisfies Record<string, CallSchemas>;
