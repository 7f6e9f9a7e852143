/**
 * Limits of the document library, the action log and the texts' import, without zod, so that the
 * web app can read them (`@crm/contract/office-constants`) without the schemas.
 */
export const DOCUMENT_NAME_MAX = 200;
export const DOCUMENT_DESCRIPTION_MAX = 4000;
/** Files of one document at most. */
export const DOCUMENT_FILES_MAX = 20;

/** The action log's entity filter (spec 001, 7): 0 any, 1 Account, 2 Object. */
export const ACTION_LOG_ENTITIES = { 0: null, 1: 'Account', 2: 'Object' } as const;
/** The log's names for an account's entries (the older ones named it by its kind). */
export const ACCOUNT_LOG_ENTITIES = ['Account', 'Client', 'Owner', 'Professional', 'Source'] as const;
/** The action log's page size (spec 001, 9). */
export const ACTION_LOG_PAGE_SIZE = 20;
/** Counting stops here: a filter that matches more says "more than" (the page itself is exact). */
export const ACTION_LOG_COUNT_CAP = 2000;

/** The columns of the localization workbook, in order. */
export const LOCALIZATION_COLUMNS = ['key', 'en', 'el', 'ru'] as const;
/** Errors of a refused import listed at most (the rest are counted). */
export const LOCALIZATION_IMPORT_MAX_ERRORS = 50;
/** The largest localization workbook accepted, in bytes (the web app refuses a larger one before sending it). */
export const LOCALIZATION_IMPORT_MAX_BYTES = 10 * 1024 * 1024;

/**
 * The messages the server itself writes into the action log (stored as these words), each shown
 * through its text actionLog.message.<message> in the reader's language. Messages that carry data
 * (a transaction's "income 125.50", an account's name) are not among them.
 */
export const LOG_MESSAGE = {
  moved: 'Moved',
  objectOffered: 'Object offered',
  objectRemoved: 'Object removed',
  firstAdministrator: 'First administrator',
  fromReservation: 'From a reservation',
  retried: 'Retried',
  backupAsked: 'Backup asked for',
  filesReordered: 'reorder',
  leftEmpty: 'Left empty',
  notSuitable: 'Object not suitable',
  suitableAgain: 'Object suitable again',
} as const;
export type TLogMessage = (typeof LOG_MESSAGE)[keyof typeof LOG_MESSAGE];
export const LOG_MESSAGES: readonly string[] = Object.values(LOG_MESSAGE);
/** A lead won because the deal made from it closed: "Won: deal #12 closed", shown through actionLog.message.won. */
export const wonLogMessage = (dealId: number) => `Won: deal #${dealId} closed`;
export const WON_LOG_MESSAGE = /^Won: deal #(\d+) closed$/;
/** A new lead moved on because a viewing was arranged for it: "Viewing #12 arranged", shown through actionLog.message.viewingArranged. */
export const viewingArrangedLogMessage = (viewingId: number) => `Viewing #${viewingId} arranged`;
export const VIEWING_ARRANGED_LOG_MESSAGE = /^Viewing #(\d+) arranged$/;
/** A lead moved on because a deal was made from it: "Deal #12 opened", shown through actionLog.message.dealOpened. */
export const dealOpenedLogMessage = (dealId: number) => `Deal #${dealId} opened`;
export const DEAL_OPENED_LOG_MESSAGE = /^Deal #(\d+) opened$/;
