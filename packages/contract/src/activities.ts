import { z } from 'zod';
import { SHOW_ALL } from './constants.ts';
import { bodyPaging, byId, listAnswer, queryPaging, ZDate, ZDateTime, ZId, ZIdString, ZOk, ZSelectOption, ZVersion } from './common.ts';
import type { CallSchemas } from './call.ts';

/*
 * Activities (notes, calls, meetings, to-dos linked to records) and assignments (people assigned
 * to a record). Link kinds are LinkKind in ./constants.ts.
 */

/** Activity categories: 0 undefined, 1 call, 2 meeting, 3 viewing. */
export const ACTIVITY_CATEGORIES = [0, 1, 2, 3] as const;
/** Page sizes of the action list (default 20). */
export const ACTION_PAGE_SIZES = [5, 20, 100] as const;
/** Action list date filter: 0 creation, 1 completion, 2 plan. */
export const ACTION_DATE_FILTER_TYPES = [0, 1, 2] as const;
/** Action list employee filter: 0 created by, 1 assigned to. */
export const ACTION_EMPLOYEE_FILTER_TYPES = [0, 1] as const;
/**
 * Done filter of the action list: 'all', 'todo' or 'completed'. For callers written against the
 * original client the booleans are accepted too: null = all, false = to do, true = completed.
 */
export const ACTION_DONE_FILTERS = ['all', 'todo', 'completed'] as const;
/** Done filter of a record's activity list: adds 'none' (notes that are not actions). */
export const ACTIVITY_DONE_FILTERS = ['all', 'none', 'todo', 'completed'] as const;

/** Assignment parents: route segment -> parent kind (Object 0, Account 1, Lead 2, Viewing 3). */
export const ASSIGNMENT_PARENTS = { object: 0, account: 1, lead: 2, viewing: 3 } as const;
export type TAssignmentParent = keyof typeof ASSIGNMENT_PARENTS;
/** The body field naming the parent record of POST /api/assignment/{parent}/add. */
export const ASSIGNMENT_PARENT_FIELDS = { object: 'objectId', account: 'accountId', lead: 'demandId', viewing: 'viewingId' } as const;

const id = ZId;
const linkKind = z.number().int().min(1).max(7);

export const ZActivityLink = z.object({
  entity: linkKind,
  id,
  /** Shown text of the linked record (an account's name, '#id' for others); ignored on input. */
  description: z.string().optional(),
});
export type TActivityLink = z.infer<typeof ZActivityLink>;

export const ZActivityPerson = z.object({ id: z.number().int(), description: z.string() });

export const ZActivity = z.object({
  id: z.number().int(),
  description: z.string().nullable(),
  /** null: not an action; false: to do; true: complete. */
  done: z.boolean().nullable(),
  category: z.number().int(),
  /** Planned date-time (agency time zone). */
  date: z.string().nullable(),
  doneDate: z.string().nullable(),
  createdOn: z.string(),
  /** Display name of the user who created it. */
  createdBy: z.string().nullable(),
  /** Id of the user who created it. */
  createdById: z.number().int().nullable(),
  assignedTo: ZActivityPerson.nullable(),
  /** The first link is the record the activity was created on. */
  links: z.array(ZActivityLink.required()),
  files: z.array(z.object({ systemName: z.string(), userName: z.string() })),
  modifiedOn: z.string(),
  version: z.number().int(),
});
export type TActivity = z.infer<typeof ZActivity>;

/** GET /api/activity: a record's activities, newest first. */
export const ZActivityListQuery = z.object({
  parent: z.coerce.number().int().min(0).max(7),
  parentId: ZIdString,
  done: z.enum(ACTIVITY_DONE_FILTERS).default('all'),
  text: z.string().max(200).default(''),
  ...queryPaging(SHOW_ALL, SHOW_ALL),
});
export type TActivityListQuery = z.input<typeof ZActivityListQuery>;
export const ZActivityListAnswer = listAnswer(ZActivity);
export type TActivityListAnswer = z.infer<typeof ZActivityListAnswer>;

/**
 * POST /api/activity/update: the activity as edited, with the version it was based on. Fields left
 * out stay as they are. `links` is the whole list (new ones are added, missing ones removed; the
 * first link cannot be removed). `addedFiles`: comma-joined ids of newly uploaded files.
 */
export const ZActivityUpdate = z.object({
  id,
  version: ZVersion,
  description: z.string().max(20000).nullable().optional(),
  done: z.boolean().nullable().optional(),
  category: z.number().int().min(0).max(3).optional(),
  date: ZDateTime.nullable().optional(),
  doneDate: ZDateTime.nullable().optional(),
  /** An account id, or the { id, description } the answer carries, or null. */
  assignedTo: z.union([id, z.object({ id, description: z.string().optional() }), z.null()]).optional(),
  links: z.array(ZActivityLink).max(100).optional(),
  addedFiles: z
    .string()
    .max(2000)
    // Ids of at most 9 digits (an int4 id; a longer one is a 400, never a 500).
    .regex(/^\s*(\d{1,9}\s*(,\s*\d{1,9}\s*)*)?$/)
    .nullable()
    .optional(),
});
export type TActivityUpdate = z.input<typeof ZActivityUpdate>;

/**
 * POST /api/activity/add: an activity linked to the record (entityType = LinkKind, id), blank, or
 * with what was entered in it: the fields of an update (`links` the whole list, the record itself
 * first). The screens add one at its first save with something in it, so that opening "New
 * activity" stores nothing; sent again with the same Idempotency-Key, it is not added twice.
 */
export const ZActivityAdd = ZActivityUpdate.omit({ id: true, version: true }).extend({ entityType: linkKind, id });
export type TActivityAdd = z.input<typeof ZActivityAdd>;

const ZDone = z.union([z.enum(ACTION_DONE_FILTERS), z.boolean(), z.null()]);
const dateOrDateTime = z.union([ZDate, ZDateTime]);

/**
 * POST /api/activity/actions: activities that are actions (done not null). `employee` is an
 * account id; `employeeFilterType` 0 matches activities created by that person's sign-in, 1 those
 * assigned to the person. Without an employee, `employeeText` matches the person's name. `mine`
 * (the home page) keeps the caller's own actions: assigned to the caller's account, or created by
 * the caller and assigned to nobody. Dates are inclusive days in the agency's time zone.
 */
export const ZActionSearch = z.object({
  dateFilterType: z.number().int().min(0).max(2).default(0),
  done: ZDone.default('all'),
  employee: ZId.nullable().optional(),
  employeeFilterType: z.number().int().min(0).max(1).default(1),
  startDate: dateOrDateTime.nullable().optional(),
  endDate: dateOrDateTime.nullable().optional(),
  employeeText: z.string().max(200).nullable().optional(),
  mine: z.boolean().optional(),
  ...bodyPaging(100),
});
export type TActionSearch = z.input<typeof ZActionSearch>;
export const ZActionSearchAnswer = z.object({
  items: z.array(ZActivity),
  totalRows: z.number().int(),
  options: z.object({
    dateFilterTypes: z.array(ZSelectOption),
    employeeFilterTypes: z.array(ZSelectOption),
    doneList: z.array(ZSelectOption),
    perPageList: z.array(z.number().int()),
  }),
});
export type TActionSearchAnswer = z.infer<typeof ZActionSearchAnswer>;

/** Assignments */
export const ZAssignmentItem = z.object({ accountId: z.number().int(), account: z.string() });
export type TAssignmentItem = z.infer<typeof ZAssignmentItem>;
export const ZAssignmentList = z.object({ canEdit: z.boolean(), items: z.array(ZAssignmentItem) });
export type TAssignmentList = z.infer<typeof ZAssignmentList>;
/** Route segment of a parent: a name (any letter case) or its number 0-3; checked by the handler. */
export const ZAssignmentParentParams = z.object({ parent: z.string().max(20), parentId: ZIdString });
export const ZAssignmentAdd = z.object({
  assignedTo: id,
  demandId: id.optional(),
  accountId: id.optional(),
  objectId: id.optional(),
  viewingId: id.optional(),
});
export type TAssignmentAdd = z.infer<typeof ZAssignmentAdd>;

/** The activities' calls and their schemas (decision 057); their methods and paths: `activities.resource.ts`. */
export const ACTIVITY_API = {
  list: { query: ZActivityListQuery, answer: ZActivityListAnswer },
  actions: { body: ZActionSearch, answer: ZActionSearchAnswer },
  add: { body: ZActivityAdd, answer: ZActivity },
  update: { body: ZActivityUpdate, answer: ZActivity },
  view: byId(ZActivity),
  remove: byId(ZOk),
} satisfies Record<string, CallSchemas>;

/** POST /api/assignment/{parent}/add: the kind of record (its id is in the body). */
export const ZAssignmentParentParam = z.object({ parent: z.string().max(20) });
/** DELETE /api/assignment/{parent}/{parentId}/{accountId}. */
export const ZAssignmentRemoveParams = ZAssignmentParentParams.extend({ accountId: ZIdString });

/** The assignments' calls and their schemas (decision 057); their methods and paths: `activities.resource.ts`. */
export const ASSIGNMENT_API = {
  list: { params: ZAssignmentParentParams, answer: ZAssignmentList },
  add: { params: ZAssignmentParentParam, body: ZAssignmentAdd, answer: ZAssignmentItem },
  remove: { params: ZAssignmentRemoveParams, answer: ZOk },
} satisfies Record<string, CallSchemas>;
