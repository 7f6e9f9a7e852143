import { recordQuery } from '../../../kit/record-query.ts';
import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TCalendarEvent, TCulture, TViewingUpdate } from '@crm/contract';
import { LEAD_VIEWINGS_PAGE } from '@crm/contract/constants';
import { ACTIVITY, VIEWING, type AnswerOf } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';
import { listSource } from '../../../kit/list-source.ts';

/** A viewing as its form reads it (GET /api/Viewing/edit/{id}, a blank one from /api/Viewing/add) and its saves answer it. */
export type TViewingAnswer = AnswerOf<typeof VIEWING.calls.edit>;

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

/** The viewing list's answer (POST /api/Viewing/search). */
export type TViewingSearchAnswer = AnswerOf<typeof VIEWING.calls.search>;

export const viewingsQuery = (typed: TViewingFilter, page: { perPage: number; currentPage: number }) => {
  // The words as the server reads them: a space more or less asks nothing again.
  const f = { ...typed, comment: typed.comment.trim().replace(/\s+/g, ' ') };
  return queryOptions({
    queryKey: [...viewingKeys.lists, f, page],
    queryFn: ({ signal }) => {
      const { demandText: _d, objectText: _o, ...filter } = f;
      return call(VIEWING.calls.search, { body: { ...filter, assignedText: f.assignedText || null, comment: f.comment || null, ...page } }, { signal, background: true });
    },
    placeholderData: keepPreviousData,
  });
};

/** GET /api/Viewing/{id}/sheet: the viewing sheet in a language (none: the client's, else the reader's). */
export const viewingSheetQuery = (id: number, culture: TCulture | null) =>
  queryOptions({
    queryKey: ['viewing', 'sheet', id, culture],
    queryFn: ({ signal }) => call(VIEWING.calls.sheet, { params: { id }, query: culture ? { culture } : {} }, { signal }),
    staleTime: 0,
    placeholderData: keepPreviousData,
    meta: { handlesErrors: true },
  });
export const viewingQuery = (id: number) =>
  recordQuery(viewingKeys.one(id), VIEWING.calls.edit, id, { keepOnReconnect: true });
export const blankViewingQuery = (demandId: number | null) =>
  queryOptions({
    queryKey: ['viewing', 'blank', demandId],
    queryFn: ({ signal }) => call(VIEWING.calls.add, { query: demandId ? { demandId } : {} }, { signal }),
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
      call(VIEWING.calls.forLead, { params: { id: leadId }, query: { perPage: LEAD_VIEWINGS_PAGE, currentPage: pageParam } }, { signal, background: true }),
    initialPageParam: 1,
    getNextPageParam: (last, pages, page) => (pages.length * LEAD_VIEWINGS_PAGE < last.totalRows ? page + 1 : undefined),
  });

export const saveViewing = (body: TViewingUpdate, changeKey?: string) => call(VIEWING.calls.update, { body }, { changeKey });
export const moveViewing = (id: number, version: number, dateOfViewing: string) => call(VIEWING.calls.move, { body: { id, version, dateOfViewing } });
export const deleteViewing = (id: number) => call(VIEWING.calls.remove, { params: { id } });
/** A to-do moved on the calendar: its new day and time, with the version it was based on. */
export const moveActivity = (id: number, version: number, date: string) => call(ACTIVITY.calls.update, { body: { id, version, date } });


export type { TCalendarEvent };
/** The calendar's entries between two days, of one employee or everyone; `stays`: with the short lets' check-ins and check-outs. */
export const calendarQuery = (from: string, till: string, assigned: number | null, stays: boolean) =>
  queryOptions({
    queryKey: [...viewingKeys.calendar, from, till, assigned, stays],
    queryFn: ({ signal }) => call(VIEWING.calls.calendar, { query: { from, till, ...(assigned ? { assigned } : {}), stays: stays ? 'true' : 'false' } }, { signal }),
    placeholderData: keepPreviousData,
  });

/** The viewings list (its typed words asked for once the typing pauses), for its screen and its route's loader. */
export const VIEWINGS = listSource({
  list: VIEWING.list,
  saved: { list: { list: 'ViewingList' }, filter: { cookie: 'ViewingList.filter', initial: NO_VIEWING_FILTER } },
  debounced: ['comment'],
  pageSizes: [5, 20, 100],
  query: (f: TViewingFilter, page) => viewingsQuery(f, { perPage: page.perPage, currentPage: page.currentPage }),
});
