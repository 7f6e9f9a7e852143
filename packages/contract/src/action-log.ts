import { z } from 'zod';
import { bodyPaging, ZDate, ZId } from './common.ts';
import { ACTION_LOG_PAGE_SIZE } from './office-constants.ts';

export { ACCOUNT_LOG_ENTITIES, ACTION_LOG_COUNT_CAP, ACTION_LOG_ENTITIES, ACTION_LOG_PAGE_SIZE, LOG_MESSAGE, LOG_MESSAGES, WON_LOG_MESSAGE, wonLogMessage, VIEWING_ARRANGED_LOG_MESSAGE, viewingArrangedLogMessage, DEAL_OPENED_LOG_MESSAGE, dealOpenedLogMessage, type TLogMessage } from './office-constants.ts';

/** POST /api/actionLog */
export const ZActionLogSearch = z.object({
  /** The employee (account) whose sign-ins did it. */
  actionBy: ZId.nullable().optional(),
  /** Without a picked employee: part of the name or e-mail of who did it. */
  actionByText: z.string().max(200).nullable().optional(),
  entity: z.union([z.literal(0), z.literal(1), z.literal(2)]).default(0),
  entityId: ZId.nullable().optional(),
  startDate: ZDate.nullable().optional(),
  endDate: ZDate.nullable().optional(),
  ...bodyPaging(1000, ACTION_LOG_PAGE_SIZE),
});
export type TActionLogSearch = z.infer<typeof ZActionLogSearch>;

export const ZActionLogRow = z.object({
  id: z.number().int(),
  date: z.string(),
  actionBy: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entityId: z.number().int().nullable(),
  /** The record the row is about, as a reader names it (an account's name, an object's #reference). */
  actionOver: z.string().nullable(),
  message: z.string().nullable(),
  data: z.unknown().nullable(),
  /**
   * The records the data names by number, as they are now, by id; one deleted since is not among
   * them (shown by its number). Accounts by name (a deal's parties, a lead's client, a key's
   * holder: accountId, keyAccountId), properties as "#0042 title" (objectId, a lead's objects, a
   * viewing's results), leads as their line "client — type, budget" (demandId, leadId), an
   * account's source (sourceId of an account's entry) by name.
   */
  accountNames: z.record(z.string(), z.string()).optional(),
  objectNames: z.record(z.string(), z.string()).optional(),
  leadNames: z.record(z.string(), z.string()).optional(),
  /** The deals (dealId) still there. */
  dealIds: z.array(z.number().int()).optional(),
  /** The viewings (viewingId) still there, with their date (local date-time, null when none was set). */
  viewingDates: z.record(z.string(), z.string().nullable()).optional(),
  /** Sign-ins (userId) by their person's name, else their username. */
  userNames: z.record(z.string(), z.string()).optional(),
  /** Branches (branchId) by name, in the reader's language. */
  branchNames: z.record(z.string(), z.string()).optional(),
});
export type TActionLogRow = z.infer<typeof ZActionLogRow>;
export const ZActionLogAnswer = z.object({
  items: z.array(ZActionLogRow),
  totalRows: z.number().int(),
  /** True when there are more rows than totalRows says (the count stopped at ACTION_LOG_COUNT_CAP). */
  totalCapped: z.boolean(),
});
export type TActionLogAnswer = z.infer<typeof ZActionLogAnswer>;
