import { recordQuery } from '../../../kit/record-query.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { LEAD, sortKey, type AnswerOf, type RequestOf } from '@crm/contract/resources';
import { LEAD_MORE_COLUMNS, LEAD_SORTS } from '@crm/contract/lead-fields';
import { saveBlob } from '../../../lib/download.ts';
import { call } from '../../../lib/api.ts';
import type { ListState } from '../../../lib/list-state.ts';
import { listSource } from '../../../kit/list-source.ts';

/** GET /api/lead/get/{id}: the lead with its option lists. */
export type TLeadAnswer = AnswerOf<typeof LEAD.calls.get>;

/** Filters of the lead list (cookie "LeadList.filter"). */
export type TLeadFilter = {
  service: number;
  sources: number[];
  stages: number[];
  priorities: number[];
  startDate: string | null;
  endDate: string | null;
  budgetRangeMin: number | null;
  budgetRangeMax: number | null;
  lastName: string;
  /** The agent (an employee assigned to the lead) and their name as the picker shows it. */
  agentId: number | null;
  agentText: string;
};
export const NO_LEAD_FILTER: TLeadFilter = {
  service: 0,
  sources: [],
  stages: [],
  priorities: [],
  startDate: null,
  endDate: null,
  budgetRangeMin: null,
  budgetRangeMax: null,
  lastName: '',
  agentId: null,
  agentText: '',
};

export type TLeadSearchAnswer = AnswerOf<typeof LEAD.calls.search>;

export const leadKeys = {
  all: ['lead'] as const,
  lists: ['lead', 'list'] as const,
  one: (id: number) => ['lead', 'one', id] as const,
};

type LeadSearchBody = RequestOf<typeof LEAD.calls.search>['body'];
const wireLeadFilter = ({ agentText: _name, ...f }: TLeadFilter) => ({ ...f, lastName: f.lastName.trim() || null });

/** POST /api/lead/download: Leads.xlsx of every lead the list's filter matches, in the list's order. */
export async function downloadLeads(f: TLeadFilter, sort: { sortBy: string; sortDir: 'asc' | 'desc' }) {
  const blob = await call(LEAD.calls.download, { body: { ...wireLeadFilter(f), sortDir: sort.sortDir, sortBy: sortKey(LEAD_SORTS, sort.sortBy) } }, { blob: true });
  saveBlob(blob, 'Leads.xlsx');
}

/** A page of the leads list; `more`: the further columns asked for (LEAD_MORE_COLUMNS). */
export const leadsQuery = (f: TLeadFilter, q: ListState, more: string[] = []) =>
  queryOptions({
    queryKey: [...leadKeys.lists, f, q, more],
    queryFn: ({ signal }) =>
      // The sort as kept (a cookie's sort as it was saved: the server answers one it does not know with a 400, as it always has).
      call(LEAD.calls.search, { body: { ...wireLeadFilter(f), ...q, sortBy: q.sortBy as LeadSearchBody['sortBy'], more } }, { signal, background: true }),
    placeholderData: keepPreviousData,
  });

/** The edit form always starts from the current record, so its version is fresh. */
export const leadQuery = (id: number) =>
  recordQuery(leadKeys.one(id), LEAD.calls.get, id);

export const addLead = (accountId?: number, changeKey?: string) => call(LEAD.calls.add, { body: accountId ? { accountId } : {} }, { changeKey });
export const updateLead = (body: Record<string, unknown> & { id: number; version: number }, changeKey?: string) => call(LEAD.calls.update, { body }, { background: true, changeKey });
export const deleteLead = (id: number) => call(LEAD.calls.remove, { params: { id } });
/** Leads this tab opened with Add: left without anything entered, they are discarded (see LeadViewPage). */
export const justAddedLeads = new Set<number>();
export const discardLead = (id: number) => call(LEAD.calls.discard, { body: { id } }, { background: true });
export const addLeadObject = (leadId: number, objectId: number) => call(LEAD.calls.addObject, { body: { leadId, objectId } });
export const removeLeadObject = (leadId: number, objectId: number) => call(LEAD.calls.removeObject, { body: { leadId, objectId } });

/** GET /api/lead/{id}/matches: the objects that fit the lead, best first (at most `limit`). */
export const leadMatches = (leadId: number, limit: number, signal?: AbortSignal) => call(LEAD.calls.matches, { params: { id: leadId }, query: { limit } }, { signal });
/** The matches marked new are marked seen. */
export const markMatchesSeen = (leadId: number) => call(LEAD.calls.matchesSeen, { params: { id: leadId } });
/** An object kept out of the lead's matches for good. */
export const setNotSuitable = (leadId: number, objectId: number) => call(LEAD.calls.notSuitable, { params: { id: leadId }, body: { objectId, notSuitable: true } });

/** The leads list: its cookies, its typed boxes and its call, for its screen and its route's loader. */
export const LEADS = listSource({ list: LEAD.list, saved: { list: { list: 'LeadList' }, filter: { cookie: 'LeadList.filter', initial: NO_LEAD_FILTER } }, debounced: ['lastName'], offered: LEAD_MORE_COLUMNS, pageSizes: [5, 20, 100], query: leadsQuery });
