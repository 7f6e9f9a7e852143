import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TResultsPeriod } from '@crm/contract';
import { DEAL_STAGE_CLOSED } from '@crm/contract/deal-fields';
import { REPORT } from '@crm/contract/resources';
import { call } from '../../lib/api.ts';
import { saveBlob } from '../../lib/download.ts';
import { readSavedFilter, type SavedFilter } from '../../lib/list-state.ts';
import { openListWith } from '../../kit/list-source.ts';
import { NO_VIEWING_FILTER, VIEWINGS } from '../../features/viewings/api/viewings.ts';
import { LEADS, NO_LEAD_FILTER } from '../../features/leads/api/leads.ts';
import { DEALS, NO_DEAL_FILTER } from '../../features/deals/api/deals.ts';

/** The report's choice (cookie "Results.filter"): the period, the typed days, an office admin's branch. */
export type TResultsFilter = { period: TResultsPeriod; from: string | null; till: string | null; branchId: number | null };
export const NO_RESULTS_FILTER: TResultsFilter = { period: 'month', from: null, till: null, branchId: null };
const PERIODS: readonly TResultsPeriod[] = ['month', 'lastMonth', 'quarter', 'year', 'range'];
export const RESULTS_FILTER: SavedFilter<TResultsFilter> = {
  cookie: 'Results.filter',
  initial: NO_RESULTS_FILTER,
  // A period of an unknown name (edited by hand) is this month again.
  read: (kept) => (PERIODS.includes(kept.period) ? kept : { ...kept, period: 'month' }),
};

/** What the server is asked: the typed days only with "Dates". */
const wire = (f: TResultsFilter) => ({ period: f.period, branchId: f.branchId, ...(f.period === 'range' ? { from: f.from, till: f.till } : {}) });
/** Whether the choice can be asked at all: "Dates" needs both days. */
export const complete = (f: TResultsFilter) => f.period !== 'range' || (!!f.from && !!f.till);

export const resultsQuery = (f: TResultsFilter) =>
  queryOptions({
    queryKey: ['report', 'results', wire(f)],
    queryFn: ({ signal }) => call(REPORT.calls.results, { body: wire(f) }, { signal, background: true }),
    enabled: complete(f),
    placeholderData: keepPreviousData,
    retry: false,
  });
/** The report as its cookie stands (nothing while "Dates" lacks a day): its route's loader asks for it while the screen's code loads. */
export const resultsFirst = () => {
  const f = readSavedFilter(RESULTS_FILTER);
  return complete(f) ? [resultsQuery(f)] : [];
};

export async function downloadResults(f: TResultsFilter) {
  const blob = await call(REPORT.calls.download, { body: wire(f) }, { blob: true });
  saveBlob(blob, 'Results.xlsx');
}

/**
 * The viewings list set to show what a number counts (the agent's viewings of the period, with these
 * results): its filter cookie is written before the list opens, so the list and its loader read it.
 */
export function openViewings(agent: { id: number; name: string }, from: string, till: string, results: readonly number[]) {
  openListWith(VIEWINGS, { ...NO_VIEWING_FILTER, assigned: agent.id, assignedText: agent.name, dateOfViewingFrom: from, dateOfViewingTill: till, results: [...results] });
}

/** The leads list set to show an agent's leads of the period (assigned to them, started in it), from its first page. */
export function openLeads(agent: { id: number; name: string }, from: string, till: string) {
  openListWith(LEADS, { ...NO_LEAD_FILTER, agentId: agent.id, agentText: agent.name, startDate: from, endDate: till });
}

/** The deals list set to show an agent's sales or rentals closed in the period (they are in charge of), from its first page. */
export function openDeals(agent: { id: number; name: string }, from: string, till: string, dealType: number) {
  openListWith(DEALS, { ...NO_DEAL_FILTER, dealType, stages: [DEAL_STAGE_CLOSED], endDateFrom: from, endDateTill: till, agentId: agent.id, agentText: agent.name });
}
