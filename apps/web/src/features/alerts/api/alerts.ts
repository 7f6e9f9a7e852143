import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ALERT, type AnswerOf } from '@crm/contract/resources';
import { ALERT_DEFAULT_PAGE_SIZE } from '@crm/contract/constants';
import { call } from '../../../lib/api.ts';
import type { ListState } from '../../../lib/list-state.ts';
import { listSource } from '../../../kit/list-source.ts';

/** An alert as GET /api/alert/{id} answers it (and its changes). */
export type TAlert = AnswerOf<typeof ALERT.calls.view>;
/** The list's answer (POST /api/alert/list): a page, how many, how many unread. */
export type TAlertListAnswer = AnswerOf<typeof ALERT.calls.list>;

export const alertKeys = {
  all: ['alerts'] as const,
  list: (perPage: number, currentPage: number) => ['alerts', 'list', perPage, currentPage] as const,
  one: (id: number) => ['alerts', 'one', id] as const,
  unreadCount: ['alerts', 'unreadCount'] as const,
};

/** POST /api/alert/list: newest first, paged. */
export const alertListQuery = ({ perPage, currentPage }: Pick<ListState, 'perPage' | 'currentPage'>) =>
  queryOptions({
    queryKey: alertKeys.list(perPage, currentPage),
    queryFn: ({ signal }) => call(ALERT.calls.list, { body: { perPage, currentPage } }, { signal, background: true }),
    placeholderData: keepPreviousData,
  });

/** GET /api/alert/{id}: opening it marks it read (so it is fetched once per visit, not on focus). */
export const alertQuery = (id: number) =>
  queryOptions({
    queryKey: alertKeys.one(id),
    queryFn: ({ signal }) => call(ALERT.calls.view, { params: { id } }, { signal }),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    meta: { handlesErrors: true },
  });

export const markAlertUnread = (id: number) => call(ALERT.calls.markUnread, { params: { id } });
/** Saves the notes, refused (409) only when someone changed them since they were read (`was`). */
export const saveAlertNotes = (id: number, notes: string | null, version: number, was: string | null) => call(ALERT.calls.updateNotes, { params: { id }, body: { notes, version, was } });
export const deleteAlert = (id: number) => call(ALERT.calls.remove, { params: { id } });

/** The alerts list: its paging cookie ("Alerts.list") and its call, for its screen and its route's loader. */
export const ALERTS = listSource({ list: ALERT.list, saved: { list: { list: 'Alerts', defaults: { perPage: ALERT_DEFAULT_PAGE_SIZE } } }, query: (_f: Record<string, never>, page) => alertListQuery(page) });
