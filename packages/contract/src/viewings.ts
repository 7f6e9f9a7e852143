import { z } from 'zod';
import { bodyPaging, byId, listAnswer, queryPaging, ZAgencyDetails, ZChangeKey, ZDate, ZDateTime, ZId, ZIdParam, ZIdString, ZOk, ZSaveKey, ZSelectOption, ZText } from './common.ts';
import type { CallSchemas } from './call.ts';
import { ZObjectKey, ZObjectKeyLastLoan } from './objects.ts';
import { classesByValue } from './field-description.ts';
import { LEAD_VIEWINGS_PAGE, VIEWING_COMMENT_MAX, VIEWING_COMMENT_SEARCH_MAX } from './constants.ts';

/** The properties one viewing shows at most (a new viewing from a lead takes its first this many offered). */
export const VIEWING_MAX_OBJECTS = 100;

/**
 * Results of a viewing, per object shown: 1 planned, 2 liked it, 3 wants a second viewing,
 * 4 made an offer, 5 not interested, 6 cancelled, 7 did not come. The viewing's own result (the
 * list's column and row style) is the most advanced of its objects' results, in VIEWING_RESULT_RANK.
 */
export const VIEWING_RESULTS = [1, 2, 3, 4, 5, 6, 7] as const;
export const VIEWING_RESULT_RANK = [4, 3, 2, 1, 5, 7, 6] as const;
/** The result "made an offer": what a deal started from a lead looks for. */
export const VIEWING_RESULT_OFFER = 4;
/** Row style classes of the list (the result's name lowercased without spaces, as the spec styles rows). */
export const VIEWING_RESULT_CLASS = classesByValue(['planned', 'liked', 'secondviewing', 'offermade', 'notinterested', 'cancelled', 'noshow']);

export const ZViewingResult = z.object({
  objectId: ZId,
  objectReferenceNumber: z.string().optional(),
  title: z.string().nullable().optional(),
  result: z.number().int().min(1).max(7).nullable(),
  /** What the client said of this object ("too dark"); blank is none. */
  comment: ZText(VIEWING_COMMENT_MAX).nullable().optional(),
});

export const ZViewing = z.object({
  id: z.number().int(),
  viewingNumber: z.string(),
  appointmentCreated: z.string().nullable(),
  dateOfViewing: z.string().nullable(),
  demandId: z.number().int().nullable(),
  demand: z.string().nullable(),
  results: z.array(ZViewingResult),
  result: z.number().int().nullable(),
  createdOn: z.string(),
  createdByAccountDisplayName: z.string().nullable(),
  modifiedOn: z.string(),
  modifiedByAccountDisplayName: z.string().nullable(),
  version: z.number().int(),
});
export type TViewing = z.infer<typeof ZViewing>;

/**
 * A key of a property shown at a viewing (the keys register): what the key is (`description`), who
 * has it now (`accountId`, `account`), when the agency received it and gave it away, and its last
 * holder (`lastLoan`) once it is back in the office: the agent knows where to pick it up.
 */
export const ZViewingObjectKey = ZObjectKey.pick({ id: true, description: true, accountId: true, account: true, received: true, givenAway: true }).extend({
  lastLoan: ZObjectKeyLastLoan.pick({ account: true }).nullable(),
});
export type TViewingObjectKey = z.infer<typeof ZViewingObjectKey>;
/** An object of a viewing as the answer shows it: with its street address, area and keys, for the agent on the way. */
export const ZViewingResultShown = ZViewingResult.extend({
  /** The street address and postcode as stored (the agent's, shown even when the listing hides it). */
  address: z.string().nullable(),
  /** The area (location) in the reader's language. */
  location: z.string().nullable(),
  keys: z.array(ZViewingObjectKey),
});
/** The client the viewing is for: the lead's account, with its phones (the first is the one to call). */
export const ZViewingClient = z.object({ accountId: z.number().int(), name: z.string(), phones: z.array(z.string()) });
export type TViewingClient = z.infer<typeof ZViewingClient>;

/**
 * GET /api/Viewing/add (a blank viewing, from a lead with its offered objects), GET /api/Viewing/edit/{id}.
 * `client` and each object's address and keys are read with the viewing (one statement for all its
 * objects); a new viewing's `agent` is who it will be assigned to unless another is chosen: the
 * reader's own account when they are staff.
 */
export const ZViewingAnswer = ZViewing.extend({
  id: z.number().int().nullable(),
  results: z.array(ZViewingResultShown),
  client: ZViewingClient.nullable(),
  agent: z.object({ id: z.number().int(), text: z.string() }).nullable().optional(),
  resultOptions: z.array(ZSelectOption),
});
export const ZViewingAddQuery = z.object({ demandId: ZIdString.optional() });

/** POST /api/Viewing/update: without id it creates the viewing. */
export const ZViewingUpdate = z.object({
  ...ZSaveKey,
  appointmentCreated: ZDateTime.nullable().optional(),
  dateOfViewing: ZDateTime.nullable().optional(),
  demandId: ZId.nullable().optional(),
  results: z.array(ZViewingResult).max(VIEWING_MAX_OBJECTS).optional(),
  /**
   * A new viewing's agent (an employee or specialist account): assigned to it on creation. Not
   * given: the creating user's own account, when they have one; null: no one. Ignored on a change
   * (the assignments card changes who has the viewing).
   */
  assignedTo: ZId.nullable().optional(),
});
export type TViewingUpdate = z.infer<typeof ZViewingUpdate>;

/** POST /api/Viewing/move: a viewing dragged to another time on the calendar. */
export const ZViewingMove = z.object({ ...ZChangeKey, dateOfViewing: ZDateTime });

/** POST /api/Viewing/search */
export const ZViewingSearch = z.object({
  results: z.array(z.number().int().min(1).max(7)).max(7).default([]),
  appointmentCreatedFrom: ZDate.nullable().optional(),
  appointmentCreatedTill: ZDate.nullable().optional(),
  dateOfViewingFrom: ZDate.nullable().optional(),
  dateOfViewingTill: ZDate.nullable().optional(),
  demandId: ZId.nullable().optional(),
  objectId: ZId.nullable().optional(),
  assigned: ZId.nullable().optional(),
  assignedText: z.string().max(200).nullable().optional(),
  /**
   * Words said at the viewing: a viewing is kept when one of its properties' comments holds every
   * word typed (accents and case ignored, as every search of the CRM).
   */
  comment: ZText(VIEWING_COMMENT_SEARCH_MAX).nullable().optional(),
  ...bodyPaging(1000000),
});
export type TViewingSearch = z.infer<typeof ZViewingSearch>;
export const ZViewingRow = z.object({
  id: z.number().int(),
  appointmentCreated: z.string().nullable(),
  dateOfViewing: z.string().nullable(),
  lead: z.string().nullable(),
  leadId: z.number().int().nullable(),
  assigned: z.string(),
  /** The objects' ids, space-separated (spec), and their reference numbers in the same order, each with what the client said of it. */
  objects: z.string(),
  objectRefs: z.array(z.object({ id: z.number().int(), referenceNumber: z.string(), comment: z.string().nullable() })),
  result: z.string(),
  resultId: z.number().int().nullable(),
  /** The row's style class: the result's name lowercased without spaces. */
  rowClass: z.string(),
});
export type TViewingRow = z.infer<typeof ZViewingRow>;
export const ZViewingSearchAnswer = listAnswer(ZViewingRow).extend({ options: z.object({ results: z.array(ZSelectOption) }) });

/**
 * GET /api/lead/{id}/viewings: the lead's viewings, newest first, each with its objects, what the
 * client made of each (result, in the reader's language) and said of it (comment).
 */
export const ZLeadViewing = z.object({
  id: z.number().int(),
  dateOfViewing: ZDateTime.nullable(),
  /** The viewing's own result (the most advanced of its objects'), as text. */
  result: z.string().nullable(),
  objects: z.array(
    z.object({ objectId: z.number().int(), objectReferenceNumber: z.string(), title: z.string().nullable(), result: z.string().nullable(), comment: z.string().nullable() }),
  ),
});
export type TLeadViewing = z.infer<typeof ZLeadViewing>;
/** A page of them: the newest LEAD_VIEWINGS_PAGE first, the next ones on asking. */
export const ZLeadViewingsQuery = z.object({
  ...queryPaging(100, LEAD_VIEWINGS_PAGE),
});
export const ZLeadViewingsAnswer = listAnswer(ZLeadViewing);
export type TLeadViewingsAnswer = z.infer<typeof ZLeadViewingsAnswer>;

/**
 * GET /api/calendar: viewings and planned activities between two days, by employee, and the short
 * lets' check-ins and check-outs (`stays`, shown unless `false`; never to branch users, who have no
 * reservations). Stays belong to no employee: `assigned` does not filter them.
 */
export const ZCalendarQuery = z.object({
  from: ZDate,
  till: ZDate,
  assigned: ZIdString.optional(),
  stays: z.enum(['true', 'false']).optional(),
});
/** The kinds of the calendar's entries: a reservation's check-in and check-out are entries of their own. */
export const CALENDAR_KINDS = ['viewing', 'activity', 'checkIn', 'checkOut'] as const;
export const ZCalendarEvent = z.object({
  kind: z.enum(CALENDAR_KINDS),
  id: z.number().int(),
  /** The day and time; a day without a time (a check-out, a check-in with no arrival time) is `allDay`, at 00:00:00. */
  start: z.string(),
  allDay: z.boolean(),
  title: z.string(),
  version: z.number().int(),
  /** Where a click leads. */
  link: z.string(),
  assigned: z.string(),
  /** A viewing's client (the lead's account), their first phone, and its properties' addresses (home's day on a phone). */
  client: z.string().nullable().optional(),
  clientPhone: z.string().nullable().optional(),
  addresses: z.array(z.string()).optional(),
});
export type TCalendarEvent = z.infer<typeof ZCalendarEvent>;
/**
 * `truncated`: more than CALENDAR_MAX_EACH viewings, activities, or check-ins and check-outs fell in
 * the range, and the first of each are sent.
 */
export const ZCalendarAnswer = z.object({ items: z.array(ZCalendarEvent), truncated: z.boolean() });

/** GET /api/Viewing/{id}/sheet: the sheet in one of the interface languages; none given: the client's, else the reader's. */
export const ZViewingSheetQuery = z.object({ culture: z.enum(['en', 'el', 'ru']).optional() });
/**
 * GET /api/Viewing/{id}/sheet: the viewing sheet the client signs (decision 044), every text of it in
 * `culture` (its labels in `texts`, by the key's last part), values written as that language writes them; null where not known
 * (the sheet leaves a line to fill in by hand).
 */
export const ZViewingSheet = z.object({
  culture: z.enum(['en', 'el', 'ru']),
  viewingNumber: z.string(),
  /** "dd/mm/yyyy, HH:MM" (Russian: dd.mm.yyyy). */
  dateOfViewing: z.string().nullable(),
  agency: ZAgencyDetails,
  client: z.object({ name: z.string().nullable(), phone: z.string().nullable(), email: z.string().nullable(), idNumber: z.string().nullable() }),
  /** The agents assigned to the viewing, by name. */
  agents: z.string().nullable(),
  objects: z.array(z.object({ referenceNumber: z.string(), type: z.string().nullable(), location: z.string().nullable(), area: z.string().nullable(), price: z.string().nullable() })),
  /** The declaration with the agency's name and fee terms filled in. */
  declaration: z.string(),
  texts: z.record(z.string(), z.string()),
});
export type TViewingSheet = z.infer<typeof ZViewingSheet>;

/** The viewings' calls and their schemas (decision 057); their methods and paths: `viewings.resource.ts`. */
export const VIEWING_API = {
  search: { body: ZViewingSearch, answer: ZViewingSearchAnswer },
  add: { query: ZViewingAddQuery, answer: ZViewingAnswer },
  edit: byId(ZViewingAnswer),
  sheet: { params: ZIdParam, query: ZViewingSheetQuery, answer: ZViewingSheet },
  update: { body: ZViewingUpdate, answer: ZViewingAnswer },
  move: { body: ZViewingMove, answer: ZViewingAnswer },
  remove: byId(ZOk),
  forLead: { params: ZIdParam, query: ZLeadViewingsQuery, answer: ZLeadViewingsAnswer },
  calendar: { query: ZCalendarQuery, answer: ZCalendarAnswer },
} satisfies Record<string, CallSchemas>;
