import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TAlert, TAlertListAnswer } from '@crm/contract';
import { ALERT_DEFAULT_PAGE_SIZE } from '@crm/contract/constants';
import { api } from '../../../lib/api.ts';
import { readSavedFilter, type SavedFilter } from '../../../lib/list-state.ts';

export const alertKeys = {
  all: ['alerts'] as const,
  list: (perPage: number, currentPage: number) => ['alerts', 'list', perPage, currentPage] as const,
  one: (id: number) => ['alerts', 'one', id] as const,
  unreadCount: ['alerts', 'unreadCount'] as const,
};

/** POST /api/alert/list: newest first, paged. */
export const alertListQuery = (perPage: number, currentPage: number) =>
  queryOptions({
    queryKey: alertKeys.list(perPage, currentPage),
    queryFn: ({ signal }) => api<TAlertListAnswer>('/api/alert/list', { body: { perPage, currentPage }, signal, background: true }),
    placeholderData: keepPreviousData,
  });

/** GET /api/alert/{id}: opening it marks it read (so it is fetched once per visit, not on focus). */
export const alertQuery = (id: number) =>
  queryOptions({
    queryKey: alertKeys.one(id),
    queryFn: ({ signal }) => api<TAlert>(`/api/alert/${id}`, { signal }),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    meta: { handlesErrors: true },
  });

export const markAlertUnread = (id: number) => api<TAlert>(`/api/alert/mark-as-unread/${id}`, { method: 'POST' });
/** Saves the notes, refused (409) only when someone changed them since they were read (`was`). */
export const saveAlertNotes = (id: number, notes: string | null, version: number, was: string | null) =>
  api<TAlert>(`/api/alert/update-notes/${id}`, { body: { notes, version, was } });
export const deleteAlert = (id: number) => api<unknown>(`/api/alert/${id}`, { method: 'DELETE' });

/** The list's paging cookie, read by its screen and by its route's loader (which asks for that page while the screen's code loads). */
export const ALERTS_PAGING: SavedFilter<{ perPage: number; currentPage: number }> = { cookie: 'Alerts.list', initial: { perPage: ALERT_DEFAULT_PAGE_SIZE, currentPage: 1 } };
export const alertsFirstPage = () => {
  const { perPage, currentPage } = readSavedFilter(ALERTS_PAGING);
  return alertListQuery(perPage, currentPage);
};
