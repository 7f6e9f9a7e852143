import { z } from 'zod';
import { SHOW_ALL } from './constants.ts';
import { parseAmount } from './typed-number.ts';

/** Problem details answered by every failing call. */
export const ZProblem = z.object({
  status: z.number(),
  title: z.string(),
  /** Stable machine key of the error (an i18n key), e.g. "errors.accessDenied". */
  code: z.string().optional(),
  detail: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  /** The current record, sent with a 409 conflict. */
  current: z.unknown().optional(),
});
export type TProblem = z.infer<typeof ZProblem>;

/** Who made a record and when, who changed it last and when (an answer's stamps; the person gone: null). */
export const ZChangeStamps = {
  createdOn: z.string(),
  createdBy: z.string().nullable(),
  modifiedOn: z.string(),
  modifiedBy: z.string().nullable(),
};
/** A stored record's stamps and its version (send the version back with a change: decision 002). */
export const ZRecordStamps = { ...ZChangeStamps, version: z.number().int() };

export const ZOk = z.object({ ok: z.literal(true) });
export type TOk = z.infer<typeof ZOk>;

/** An answer that is a spreadsheet (the OpenAPI document says so). */
export const ZXlsxWorkbook = z.any().describe('xlsx workbook');
/** A conditional GET's 304: no body. */
export const ZNotModified = z.null().describe('Not modified');

/** The largest id: ids are PostgreSQL integers (32-bit, signed). */
export const MAX_ID = 2147483647;
/** The largest page number: keeps (page - 1) × page size far inside PostgreSQL's 64-bit OFFSET. */
export const MAX_PAGE = 1000000;

/** The one id type: a positive 32-bit integer. In a body it is a JSON number. */
export const ZId = z.number().int().min(1).max(MAX_ID);
/** The same id read from a path or query string ("12"). */
export const ZIdString = z.coerce.number().int().min(1).max(MAX_ID);
export const ZIdParam = z.object({ id: ZIdString });
/** A call on one record named by its path's id (`/api/Deal/edit/:id`), and what it answers. */
export const byId = <A extends z.ZodType>(answer: A) => ({ params: ZIdParam, answer });

/**
 * The version a change of a record was based on, as its edit answer gave it (decision 002). A change
 * of a record without it is refused (428). A blank for a new record (GET .../add) has
 * 0 or null, and posted back unchanged it creates.
 */
export const ZVersion = z.number().int().min(0).max(MAX_ID).nullable().optional();
/** The same version read from a query string or a form field ("3"). */
export const ZVersionString = z.coerce.number().int().min(0).max(MAX_ID).optional();

/** A page number from a body, and from a query string. */
export const ZPage = z.number().int().min(1).max(MAX_PAGE);
export const ZPageString = z.coerce.number().int().min(1).max(MAX_PAGE);

/** A list's page asked for in a body: its size (1 to `max`, `perPage` when not said) and its number. */
export const bodyPaging = (max: number, perPage = 20) => ({
  perPage: z.number().int().min(1).max(max).default(perPage),
  currentPage: ZPage.default(1),
});
/** The same, read from a query string ("20", "3"). */
export const queryPaging = (max: number, perPage = 20) => ({
  perPage: z.coerce.number().int().min(1).max(max).default(perPage),
  currentPage: ZPageString.default(1),
});

export const ZPaging = z.object(queryPaging(SHOW_ALL));

/** A list's order: the column it sorts by (`by` when not said) and the direction (descending when not said). */
export const sorting = <const S extends readonly [string, ...string[]]>(sorts: S, by: S[number]) => ({
  sortBy: z.enum(sorts).default(by),
  sortDir: z.enum(['asc', 'desc']).default('desc'),
});

/** A picker's words as typed (an account, a lead, an object, a place): none, every choice. */
export const ZPickerSearch = { searchStr: z.string().max(200).default('') };
/** A picker's choices: each its id and what it shows. */
export const ZPickerItem = z.object({ id: z.number().int(), description: z.string() });
export const ZPickerAnswer = z.object({ items: z.array(ZPickerItem) });

/** A list's answer: a page of its rows and how many rows match in all. */
export const listAnswer = <T extends z.ZodTypeAny>(row: T) => z.object({ items: z.array(row), totalRows: z.number().int() });

/** The version a change was based on, alone: in a body (an invoice's issue, an erasure) and in a query string (a delete: DELETE …?version=). */
export const ZVersionBody = z.object({ version: ZVersion });
export const ZVersionQuery = z.object({ version: ZVersionString });
/** The id and version of a record being changed: a change without the version is refused (decision 002). */
export const ZChangeKey = { id: ZId, version: ZVersion };
/** The same for a save that creates the record when it has no id (a blank posted back unchanged creates too). */
export const ZSaveKey = { id: ZId.nullable().optional(), version: ZVersion };

/** One of a fixed list of numbers (a stage, a type, a source): anything else is validation.choice. */
export const oneOf = (values: readonly number[]) => z.number().int().refine((v) => values.includes(v), { message: 'validation.choice' });

/**
 * The further columns a list shows beside its own (a list's `more`): each a described field's name
 * among `columns`, each answered in the row's `more`; an unknown one is validation.unknownField.
 */
export const moreColumns = (columns: readonly string[]) =>
  z
    .array(z.string().max(60).refine((n) => columns.includes(n), { message: 'validation.unknownField' }))
    .max(columns.length)
    .default([]);
/** The further columns' values of a row, by field name: an amount or a number, a date (YYYY-MM-DD), a text. */
export const ZMoreValues = z.record(z.string(), z.union([z.string(), z.number(), z.null()])).optional();

/**
 * Text that PostgreSQL can store and every client can show: no NUL character and no half of a
 * UTF-16 surrogate pair. The server checks every string of every request with it (query, path,
 * body), so a route's own schema need not repeat it.
 */
export function isStorableText(s: string): boolean {
  // eslint-disable-next-line no-control-regex
  return !/\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}
export const ZText = (max: number) => z.string().max(max).refine(isStorableText, { message: 'validation.badCharacters' });

const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
/** A real calendar day "YYYY-MM-DD", years 1..9999 (2024-02-30 and 0000-01-01 are not days). */
export function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return y >= 1 && mo >= 1 && mo <= 12 && d >= 1 && d <= daysIn(y, mo);
}
/** A real day and time of day "YYYY-MM-DDTHH:mm:ss" (hours 00-23, minutes and seconds 00-59). */
export function isCalendarDateTime(s: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(s);
  if (!m) return false;
  return isCalendarDate(m[1]!) && Number(m[2]) <= 23 && Number(m[3]) <= 59 && Number(m[4]) <= 59;
}

/** The one date type: a day, YYYY-MM-DD, that exists in the calendar. */
export const ZDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine(isCalendarDate, { message: 'validation.date' });
/** The one date-time type: in the agency's time zone, YYYY-MM-DDTHH:mm:ss (19 characters), a real moment. */
export const ZDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/)
  .refine(isCalendarDateTime, { message: 'validation.dateTime' });

// ---------- Money: exact decimal text, never a JS number (field type 'money') ----------

/** The largest amount numeric(14,2) holds. */
export const MAX_AMOUNT = '999999999999.99';
/** The same, for amounts carried as JS numbers (prices, budgets): what numeric(14,2) holds. */
export const MAX_AMOUNT_NUMBER = 999999999999.99;

/** A decimal amount as the API answers it: "1234.50", "-80.00". */
export const ZMoney = z.string();

/** An amount typed by a person, read as every typed number of the app (typed-number.ts). */
export { parseAmount };

export const ZAmountInput = z.string().max(40).superRefine((s, ctx) => {
  const r = parseAmount(s);
  if (!r.ok) ctx.addIssue({ code: 'custom', message: r.code });
});

/**
 * A date-time entered as two inputs (a date and a time of day) and joined (joinDateTime): shorter
 * than 19 characters means one of them is missing (payments.dateTimeShort).
 */
export const ZDateTimeInput = z.string().superRefine((s, ctx) => {
  if (s.length < 19) ctx.addIssue({ code: 'custom', message: 'payments.dateTimeShort' });
  else if (!isCalendarDateTime(s)) ctx.addIssue({ code: 'custom', message: 'validation.dateTime' });
});


export const ZSelectOption = z.object({
  text: z.string(),
  value: z.union([z.string(), z.number()]),
  parent: z.union([z.string(), z.number()]).nullable().optional(),
});
export type TSelectOption = z.infer<typeof ZSelectOption>;

/** A form's or a list's choices: one list of options per name, in the order named. */
export function optionLists<const L extends string>(...names: readonly L[]) {
  return z.object(Object.fromEntries(names.map((n) => [n, z.array(ZSelectOption)])) as { [N in L]: z.ZodArray<typeof ZSelectOption> });
}

/**
 * The agency's details as a printed sheet heads them (issue 45): a number not set is null (left
 * out, no blank line); `logo` the logo's address, null without one.
 */
export const ZAgencyDetails = z.object({
  name: z.string(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  licence: z.string().nullable(),
  taxNumber: z.string().nullable(),
  taxOffice: z.string().nullable(),
  website: z.string().nullable(),
  logo: z.string().nullable(),
});
