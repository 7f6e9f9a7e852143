import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TReservationAnswer, TReservationUpdate } from '@crm/contract';
import { OBJECT, RESERVATION, sortKey, type AnswerOf } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';
import { saveBlob } from '../../../lib/download.ts';
import { agencyTodayDate } from '../../../lib/agency-clock.ts';
import { readCookieState, readSavedFilter, type SavedFilter } from '../../../lib/list-state.ts';
import { listSource } from '../../../kit/list-source.ts';
import { AVAILABILITY_PAGE_SIZES, RESERVATION_PAGE_SIZES } from '@crm/contract/reservation-fields';
import { AVAILABILITY_VIEW, AVAILABILITY_VIEW_COOKIE, availabilityWindow, keptView, parseDay, type AvailabilityView } from '../availability.ts';

/** The list's answer (POST /api/Reservation/search): a page, the sums, the date range applied, the options. */
export type TReservationSearchAnswer = AnswerOf<typeof RESERVATION.calls.search>;

/** Filters of the reservation list (cookie "ReservationList.filter"), with the picked object's text. */
export type TReservationFilter = {
  objectId: number | null;
  objectText: string;
  objectWebsiteCode: string;
  reservationNumber: string;
  reservationNumberExternal: string;
  dateFilterType: number;
  /** Undefined: the current year (the server's default); null: open. */
  startDate: string | null | undefined;
  endDate: string | null | undefined;
  sources: number[];
  stages: number[];
  clientName: string;
};
export const NO_RESERVATION_FILTER: TReservationFilter = {
  objectId: null,
  objectText: '',
  objectWebsiteCode: '',
  reservationNumber: '',
  reservationNumberExternal: '',
  dateFilterType: 2,
  startDate: undefined,
  endDate: undefined,
  sources: [],
  stages: [],
  clientName: '',
};

export const reservationKeys = {
  all: ['reservation'] as const,
  lists: ['reservation', 'list'] as const,
  one: (id: number) => ['reservation', 'one', id] as const,
  availability: ['reservation', 'availability'] as const,
};

type Paging = { perPage: number; currentPage: number; sortBy: string; sortDir: 'asc' | 'desc' };
const SORTS = ['checkIn', 'checkOut', 'bookingDate', 'total', 'id'] as const;

/** The filter and the order as the list's search and its download send them. */
const wireFilter = (f: TReservationFilter, sort: { sortBy: string; sortDir: 'asc' | 'desc' }) => {
  const { objectText: _o, ...filter } = f;
  const text = (s: string) => s.trim() || null;
  return {
    ...filter,
    objectWebsiteCode: text(f.objectWebsiteCode),
    reservationNumber: text(f.reservationNumber),
    reservationNumberExternal: text(f.reservationNumberExternal),
    clientName: text(f.clientName),
    sortBy: sortKey(SORTS, sort.sortBy) ?? 'checkIn',
    sortDir: sort.sortDir,
  };
};

export const reservationsQuery = (f: TReservationFilter, page: Paging) =>
  queryOptions({
    queryKey: [...reservationKeys.lists, f, page],
    queryFn: ({ signal }) => call(RESERVATION.calls.search, { body: { ...wireFilter(f, page), perPage: page.perPage, currentPage: page.currentPage } }, { signal, background: true }),
    placeholderData: keepPreviousData,
  });

/** POST /api/Reservation/download: Reservations.xlsx of every booking the list's filter matches, in the list's order. */
export async function downloadReservations(f: TReservationFilter, sort: { sortBy: string; sortDir: 'asc' | 'desc' }) {
  const blob = await call(RESERVATION.calls.download, { body: wireFilter(f, sort) }, { blob: true });
  saveBlob(blob, 'Reservations.xlsx');
}

export const reservationQuery = (id: number) =>
  queryOptions({
    queryKey: reservationKeys.one(id),
    // The contract's answer: its described fields typed by TReservationAnswer (the schema's shape is built from the field list).
    queryFn: async ({ signal }) => (await call(RESERVATION.calls.edit, { params: { id } }, { signal })) as TReservationAnswer,
    staleTime: 0,
    // A form is open on it: read again on reconnecting, a newer version would open the form afresh, dropping what was typed (a save meets it as a 409 and merges).
    refetchOnReconnect: false,
    meta: { handlesErrors: true },
  });
export const blankReservationQuery = (q: { objectId?: number; demandId?: number; checkIn?: string }) =>
  queryOptions({
    queryKey: ['reservation', 'blank', q],
    queryFn: async ({ signal }) => (await call(RESERVATION.calls.add, { query: q }, { signal })) as TReservationAnswer,
    staleTime: 0,
    // A form is open on it: read again on reconnecting, a newer version would open the form afresh, dropping what was typed (a save meets it as a 409 and merges).
    refetchOnReconnect: false,
    gcTime: 0,
    meta: { handlesErrors: true },
  });

export const saveReservation = async (body: TReservationUpdate, changeKey?: string) => (await call(RESERVATION.calls.update, { body }, { changeKey })) as TReservationAnswer;
export const deleteReservation = (id: number) => call(RESERVATION.calls.remove, { params: { id } });

/** Short-let (STR) objects by reference number or title. */
export const searchShortLetObjects = async (searchStr: string, signal: AbortSignal) =>
  (await call(OBJECT.calls.searchByRefNumOrTitle, { query: { searchStr, options: 'STR' } }, { signal })).items.map((i) => ({
    id: i.id,
    text: i.description.includes(i.referenceNumber) ? i.description : `#${i.referenceNumber} ${i.description}`,
  }));

/** The reservations list: its cookies, its typed boxes and its call, for its screen and its route's loader. */
export const RESERVATIONS = listSource({
  list: RESERVATION.list,
  saved: { list: { list: 'ReservationList', defaults: { sortBy: 'checkIn', sortDir: 'desc' } }, filter: { cookie: 'ReservationList.filter', initial: NO_RESERVATION_FILTER } },
  debounced: ['objectWebsiteCode', 'reservationNumber', 'reservationNumberExternal', 'clientName'],
  pageSizes: RESERVATION_PAGE_SIZES,
  query: reservationsQuery,
});

/** The availability grid's filters (cookie "ReservationAvailability.filter"): a property (with its picked text) or a website code's start. */
export type TAvailabilityFilter = { objectId: number | null; objectText: string; objectWebsiteCode: string };
export const NO_AVAILABILITY_FILTER: TAvailabilityFilter = { objectId: null, objectText: '', objectWebsiteCode: '' };
export const AVAILABILITY_FILTER: SavedFilter<TAvailabilityFilter> = { cookie: 'ReservationAvailability.filter', initial: NO_AVAILABILITY_FILTER };

/** A page of short-let properties with the bookings that hold the window's nights. */
export const availabilityQuery = (w: { from: string; days: number }, f: TAvailabilityFilter, page: { perPage: number; currentPage: number }) =>
  queryOptions({
    queryKey: [...reservationKeys.availability, w, f.objectId, f.objectWebsiteCode, page],
    queryFn: ({ signal }) =>
      call(
        RESERVATION.calls.availability,
        { body: { ...w, objectId: f.objectId, objectWebsiteCode: f.objectWebsiteCode.trim() || null, perPage: page.perPage, currentPage: page.currentPage } },
        { signal, background: true },
      ),
    placeholderData: keepPreviousData,
  });

/** What the grid at this address (?date=) shows first, as its cookies stand: asked by its route's loader while the screen's code loads. */
export const availabilityFirstQuery = (search: URLSearchParams) => {
  const view = keptView(readCookieState<AvailabilityView>(AVAILABILITY_VIEW_COOKIE, AVAILABILITY_VIEW), AVAILABILITY_PAGE_SIZES);
  return availabilityQuery(availabilityWindow(view.mode, parseDay(search.get('date')) ?? agencyTodayDate()), readSavedFilter(AVAILABILITY_FILTER), { perPage: view.perPage, currentPage: 1 });
};
