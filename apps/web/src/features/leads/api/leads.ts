import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TLead, TLeadRow, TSelectOption } from '@crm/contract';
import { api } from '../../../lib/api.ts';
import { readSavedFilter, readSavedList, type ListState, type SavedFilter, type SavedList } from '../../../lib/list-state.ts';

export type TLeadLists = { sourceList: TSelectOption[]; stageList: TSelectOption[]; priorityList: TSelectOption[]; objectSubTypeList: TSelectOption[]; featureList: TSelectOption[] };
/** GET /api/lead/get/{id}: the lead with its option lists. */
export type TLeadAnswer = TLead & TLeadLists;

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

export type TLeadSearchAnswer = {
  items: TLeadRow[];
  totalRows: number;
  options: { serviceList: TSelectOption[]; sourceList: TSelectOption[]; stageList: TSelectOption[]; priorityList: TSelectOption[] };
};

export const leadKeys = {
  all: ['lead'] as const,
  lists: ['lead', 'list'] as const,
  one: (id: number) => ['lead', 'one', id] as const,
};

const wireLeadFilter = ({ agentText: _name, ...f }: TLeadFilter) => ({ ...f, lastName: f.lastName.trim() || null });

export const leadsQuery = (f: TLeadFilter, q: ListState) =>
  queryOptions({
    queryKey: [...leadKeys.lists, f, q],
    queryFn: ({ signal }) =>
      api<TLeadSearchAnswer>('/api/lead/search', { body: { ...wireLeadFilter(f), ...q }, signal, background: true }),
    placeholderData: keepPreviousData,
  });

/** The edit form always starts from the current record, so its version is fresh. */
export const leadQuery = (id: number) =>
  queryOptions({
    queryKey: leadKeys.one(id),
    queryFn: ({ signal }) => api<TLeadAnswer>(`/api/lead/get/${id}`, { signal }),
    staleTime: 0,
    meta: { handlesErrors: true },
  });

export const addLead = (accountId?: number, changeKey?: string) => api<{ id: number }>('/api/lead/add', { body: accountId ? { accountId } : {}, changeKey });
export const updateLead = (body: Record<string, unknown> & { id: number; version: number }, changeKey?: string) => api<TLeadAnswer>('/api/lead/update', { body, background: true, changeKey });
export const deleteLead = (id: number) => api<unknown>(`/api/lead/${id}`, { method: 'DELETE' });
/** Leads this tab opened with Add: left without anything entered, they are discarded (see LeadViewPage). */
export const justAddedLeads = new Set<number>();
export const discardLead = (id: number) => api<{ discarded: boolean }>('/api/lead/discard', { body: { id }, background: true });
export const addLeadObject = (leadId: number, objectId: number) =>
  api<{ objects: TLead['objects']; version: number }>('/api/lead/addObject', { body: { leadId, objectId } });
export const removeLeadObject = (leadId: number, objectId: number) =>
  api<{ objects: TLead['objects']; version: number }>('/api/lead/removeObject', { body: { leadId, objectId } });

/** The list's cookies, read by its screen and by its route's loader (which asks for the first page while the screen's code loads). */
export const LEAD_LIST: SavedList = { list: 'LeadList' };
export const LEAD_FILTER: SavedFilter<TLeadFilter> = { cookie: 'LeadList.filter', initial: NO_LEAD_FILTER };
export const leadsFirstPage = () => leadsQuery(readSavedFilter(LEAD_FILTER), readSavedList(LEAD_LIST));
