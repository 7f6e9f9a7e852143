import { z } from 'zod';
import { SHOW_ALL } from './constants.ts';

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

export const ZOk = z.object({ ok: z.literal(true) });
export type TOk = z.infer<typeof ZOk>;

export const ZIdParam = z.object({ id: z.coerce.number().int().positive() });


export const ZPaging = z.object({
  perPage: z.coerce.number().int().min(1).max(SHOW_ALL).default(20),
  currentPage: z.coerce.number().int().min(1).default(1),
});

/** Date-time in the agency's time zone, YYYY-MM-DDTHH:mm:ss (19 characters). */
export const ZDateTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
export const ZDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const ZSelectOption = z.object({
  text: z.string(),
  value: z.union([z.string(), z.number()]),
  parent: z.union([z.string(), z.number()]).nullable().optional(),
});
export type TSelectOption = z.infer<typeof ZSelectOption>;
