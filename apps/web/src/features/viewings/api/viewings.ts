import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TCalendarEvent, TCulture, TLeadViewingsAnswer, TSelectOption, TViewing, TViewingRow, TViewingSheet, TViewingUpdate } from '@crm/contract';
import { LEAD_VIEWINGS_PAGE } from '@crm/contract/constants';
import { api } from '../../../lib/api.ts';
import { readSavedFilter, readSavedList, type SavedFilter, type SavedList } from '../../../lib/list-state.ts';

export type TViewingAnswer = Omit<TViewing, 'id'> & { id: number | null; resultOptions: TSelectOption[] };

/** Filters of the viewing list (cookie "ViewingList.filter"), with the picked records' texts. */
export type TViewingFilter = {
  results: number[];
  appointmentCreatedFrom: string | null;
  appointmentCreatedTill: string | null;
  dateOfViewingFrom: string | null;
  dateOfViewingTill: string | null;
  demandId: number | null;
  demandText: string;
  objectId: number | null;
  objectText: string;
  assigned: number | null;
  assignedText: string;
  /** Words the client said, searched in the comments (as typed; trimmed when sent). */
  comment: string;
};
export const NO_VIEWING_FILTER: TViewingFilter = {
  results: [],
  appointmentCreatedFrom: null,
  appointmentCreatedTill: null,
  dateOfViewingFrom: null,
  dateOfViewingTill: null,
  demandId: null,
  demandText: '',
  objectId: null,
  objectText: '',
  assigned: null,
  assignedText: '',
  comment: '',
};

export const viewingKeys = {
  all: ['viewing'] as const,
  lists: ['viewing', 'list'] as const,
  one: (id: number) => ['viewing', 'one', id] as const,
  calendar: ['viewing', 'calendar'] as const,
  ofLead: ['viewing', 'ofLead'] as const,
};

export const viewingsQuery = (typed: TViewingFilter, page: { perPage: number; currentPage: number }) => {
  // The words as the server reads them: a space more or less asks nothing again.
  const f = { ...typed, comment: typed.comment.trim().replace(/\s+/g, ' ') };
  return queryOptions({
    queryKey: [...viewingKeys.lists, f, page],
    queryFn: ({ signal }) => {
      const { demandText: _d, objectText: _o, ...filter } = f;
      return api<{ items: TViewingRow[]; totalRows: number; options: { results: TSelectOption[] } }>('/api/Viewing/search', {
        body: { ...filter, assignedText: f.assignedText || null, comment: f.comment || null, ...page },
        signal,
        background: true,
      });
    },
    placeholderData: keepPreviousData,
  });
};

/** GET /api/Viewing/{id}/sheet: the viewing sheet in a language (none: the client's, else the reader's). */
export const viewingSheetQuery = (id: number, culture: TCulture | null) =>
  queryOptions({
    queryKey: ['viewing', 'sheet', id, culture],
    queryFn: ({ signal }) => api<TViewingSheet>(`/api/Viewing/${id}/sheet`, { query: culture ? { culture } : {}, signal }),
    staleTime: 0,
    placeholderData: keepPreviousData,
    meta: { handlesErrors: true },
  });
export const viewingQuery = (id: number) =>
  queryOptions({ queryKey: viewingKeys.one(id), queryFn: ({ signal }) => api<TViewingAnswer>(`/api/Viewing/edit/${id}`, { signal }), staleTime: 0, refetchOnReconnect: false, meta: { handlesErrors: true } });
export const blankViewingQuery = (demandId: number | null) =>
  queryOptions({
    queryKey: ['viewing', 'blank', demandId],
    queryFn: ({ signal }) => api<TViewingAnswer>('/api/Viewing/add', { query: demandId ? { demandId } : {}, signal }),
    staleTime: 0,
    // A form is open on it: read again on reconnecting, a newer version would open the form afresh, dropping what was typed (a save meets it as a 409 and merges).
    refetchOnReconnect: false,
    gcTime: 0,
    meta: { handlesErrors: true },
  });

/**
 * GET /api/lead/{id}/viewings: the lead's viewings with each property's result and comment, the
 * newest LEAD_VIEWINGS_PAGE first and as many more at each "Show more", with their total.
 */
export const leadViewingsQuery = (leadId: number) =>
  infiniteQueryOptions({
    queryKey: [...viewingKeys.ofLead, leadId],
    queryFn: ({ signal, pageParam }) =>
      api<TLeadViewingsAnswer>(`/api/lead/${leadId}/viewings`, { query: { perPage: LEAD_VIEWINGS_PAGE, currentPage: pageParam }, signal, background: true }),
    initialPageParam: 1,
    getNextPageParam: (last, pages, page) => (pages.length * LEAD_VIEWINGS_PAGE < last.totalRows ? page + 1 : undefined),
  });

export const saveViewing = (body: TViewingUpdate, changeKey?: string) => api<TViewingAnswer>('/api/Viewing/update', { body, changeKey });
export const moveViewing = (id: number, version: number, dateOfViewing: string) => api<TViewingAnswer>('/api/Viewing/move', { body: { id, version, dateOfViewing } });
export const deleteViewing = (id: number) => api<unknown>(`/api/Viewing/${id}`, { method: 'DELETE' });


export type { TCalendarEvent };
/** The calendar's entries between two days, of one employee or everyone; `stays`: with the short lets' check-ins and check-outs. */
export const calendarQuery = (from: string, till: string, assigned: number | null, stays: boolean) =>
  queryOptions({
    queryKey: [...viewingKeys.calendar, from, till, assigned, stays],
    queryFn: ({ signal }) => api<{ items: TCalendarEvent[]; truncated: boolean }>('/api/calendar', { query: { from, till, ...(assigned ? { assigned } : {}), stays: String(stays) }, signal }),
    placeholderData: keepPreviousData,
  });

/** The list's cookies, read by its screen and by its route's loader (which asks for the first page while the screen's code loads). */
export const VIEWING_LIST: SavedList = { list: 'ViewingList' };
export const VIEWING_FILTER: SavedFilter<TViewingFilter> = { cookie: 'ViewingList.filter', initial: NO_VIEWING_FILTER };
export const viewingsFirstPage = () => {
  const { perPage, currentPage } = readSavedList(VIEWING_LIST);
  return viewingsQuery(readSavedFilter(VIEWING_FILTER), { perPage, currentPage });
};
