import { z } from 'zod';
import { ZDate, ZSelectOption } from './common.ts';
import type { CallSchemas } from './call.ts';

/**
 * The Results report (agents' results): the period it covers. "range" takes the from and till days
 * typed; the others are counted from the agency's today (this month, last month, this quarter, this year).
 */
export const RESULTS_PERIODS = ['month', 'lastMonth', 'quarter', 'year', 'range'] as const;
export type TResultsPeriod = (typeof RESULTS_PERIODS)[number];
/** The years a typed period may reach: anything outside is a typing slip, not a question. */
export const RESULTS_YEAR_MIN = 2000;
export const RESULTS_YEAR_MAX = 2100;

/** POST /api/report/results and /api/report/results/download */
export const ZResultsQuery = z.object({
  period: z.enum(RESULTS_PERIODS).default('month'),
  from: ZDate.nullable().optional(),
  till: ZDate.nullable().optional(),
  /** Office admins only: one branch's agents. */
  branchId: z.number().int().min(1).max(32767).nullable().optional(),
});
export type TResultsQuery = z.input<typeof ZResultsQuery>;

/** One agent's figures (or the totals row, with accountId null): counts, and money as exact decimal texts. */
export const ZResultsRow = z.object({
  accountId: z.number().int().nullable(),
  name: z.string(),
  properties: z.number().int(),
  viewings: z.number().int(),
  offers: z.number().int(),
  leads: z.number().int(),
  sales: z.number().int(),
  salesValue: z.string(),
  salesCommission: z.string(),
  rentals: z.number().int(),
  rentalsValue: z.string(),
  rentalsCommission: z.string(),
  commission: z.string(),
});
export type TResultsRow = z.infer<typeof ZResultsRow>;

export const ZResultsAnswer = z.object({
  /** The days the figures cover, both included. */
  from: z.string(),
  till: z.string(),
  rows: z.array(ZResultsRow),
  totals: ZResultsRow,
  /** The branches an office admin may pick (empty for everyone else). */
  branches: z.array(ZSelectOption),
});
export type TResultsAnswer = z.infer<typeof ZResultsAnswer>;

/** The reports' calls and their schemas (decision 057); their methods and paths: `reports.resource.ts`. */
export const REPORT_API = {
  results: { body: ZResultsQuery, answer: ZResultsAnswer },
  download: { body: ZResultsQuery },
} satisfies Record<string, CallSchemas>;
