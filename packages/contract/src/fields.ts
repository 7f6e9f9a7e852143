import { z } from 'zod';
import { ZIdString, ZSelectOption, ZVersionString } from './common.ts';

/** Kinds of value the single-field editor edits (spec: single-field editor field types). */
export const FIELD_TYPES = [
  'text',
  'textarea',
  'number',
  /** metres (integer); shown in km from 1000 m */
  'distance',
  /** kilometres with one decimal */
  'distance-km',
  /** euro as a JS number (prices, commissions) */
  'currency',
  /**
   * euro and cent as exact decimal text, never a JS number: numeric(14,2) in SQL read as a string,
   * "80.50" in JSON; typed by a person as any number of the app ("1.500", "1.234,56", "1,234.56",
   * "1234.56": parseAmount, typed-number.ts). A positive amount
   * of at most 12 integer digits and two decimals.
   */
  'money',
  /** square metres */
  'area',
  'select',
  'enum',
  /** YYYY-MM-DD */
  'date',
  /**
   * a moment as the agency's local "YYYY-MM-DDTHH:mm:ss" (19 characters), entered as two inputs,
   * a date and a time of day, joined by joinDateTime (timestamptz in SQL)
   */
  'date-time',
  /** a location id, chosen by autocomplete */
  'location',
  /** several boolean columns edited as one checkbox group; the value is the list of set flags */
  'flag-enum',
  /** yes / no / not set */
  'boolNullable',
  /** on / off */
  'boolean',
  /** several values of a select list, stored as a list of ids */
  'multi-select',
] as const;
export type TFieldType = (typeof FIELD_TYPES)[number];

/** PATCH (or POST) /api/{entity}/patch/{id}: a JSON Patch of exactly one replace operation. */
export const ZFieldPatchOp = z.object({
  op: z.literal('replace'),
  /** "/fieldName" */
  path: z.string().regex(/^\/[A-Za-z][A-Za-z0-9_]*$/),
  value: z.unknown(),
});
export const ZFieldPatch = z.array(ZFieldPatchOp).length(1);
export type TFieldPatch = z.infer<typeof ZFieldPatch>;

export const ZFieldPatchQuery = z.object({
  /** The version the edit was based on (same as the If-Match header); stale → 409. */
  version: ZVersionString,
});

/** The updated fields of the record (id, version, stamps and every editable field). */
export const ZFieldPatchAnswer = z.object({
  dto: z.record(z.string(), z.unknown()),
  /** false when the value was unchanged and nothing was written. */
  viewUpdated: z.boolean(),
});
export type TFieldPatchAnswer = z.infer<typeof ZFieldPatchAnswer>;

/** GET /api/{entity}/editRequestSelectList?id=&fieldName= */
export const ZEditRequestQuery = z.object({
  id: ZIdString,
  fieldName: z.string().min(1).max(100),
});
export const ZEditRequestAnswer = z.object({
  /** The current value (flag-enum: the set flags joined by commas). */
  value: z.unknown(),
  type: z.enum(FIELD_TYPES),
  selectList: z.array(ZSelectOption),
  /** The property of the answer's dto that shows the field. */
  dtoFieldName: z.string(),
  /** flag-enum: the set flags. */
  valueArray: z.array(z.union([z.string(), z.number()])).optional(),
  /** flag-enum: the texts of the set flags, joined by ", ". */
  selectListText: z.string().optional(),
  /** The record's version, to send back with the patch. */
  version: z.number().int().optional(),
});
export type TEditRequestAnswer = z.infer<typeof ZEditRequestAnswer>;
