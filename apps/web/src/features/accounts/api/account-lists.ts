import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TAccountRow, TClientRow, TEmployeRow, TOwnerRow, TPartnerRow, TSelectOption, TSourceRow, TSpecialistRow } from '@crm/contract';
import { api } from '../../../lib/api.ts';
import type { ListState } from '../../../lib/list-state.ts';

export type TPage<T> = { items: T[]; totalRows: number };

/** The lists answered by a GET with paging and sorting in the query string. */
const getList =
  <T>(name: string, path: string) =>
  (q: ListState) =>
    queryOptions({
      queryKey: ['accounts', name, q],
      queryFn: ({ signal }) => api<TPage<T>>(path, { query: { ...q }, signal }),
      placeholderData: keepPreviousData,
    });

export const ownersQuery = getList<TOwnerRow>('owners', '/api/owner');
export const specialistsQuery = getList<TSpecialistRow>('specialists', '/api/professional');
export const sourcesQuery = getList<TSourceRow>('sources', '/api/source');
export const employesQuery = getList<TEmployeRow>('employes', '/api/employe');
export const accountsQuery = getList<TAccountRow>('accounts', '/api/account');

/** Filters of the client list (cookie "ClientList.filter"). */
export type TClientFilter = { serviceFilter: number; sources: number[]; startDate: string | null; endDate: string | null; lastName: string };
export type TClientSearchAnswer = TPage<TClientRow> & { filterLists: { serviceList: TSelectOption[]; sourceList: TSelectOption[] } };

export const clientsQuery = (f: TClientFilter, q: ListState) =>
  queryOptions({
    queryKey: ['accounts', 'clients', f, q],
    queryFn: ({ signal }) =>
      api<TClientSearchAnswer>('/api/clients/search', {
        body: { ...f, lastName: f.lastName.trim() || null, ...q },
        signal,
        background: true,
      }),
    placeholderData: keepPreviousData,
  });

/** Filters of the partner list (cookie "PartnerList.filter"). */
export type TPartnerFilter = { createdBy: number | null; createdByText: string; country: string; createdOnStart: string | null; createdOnEnd: string | null };

export const partnersQuery = (f: TPartnerFilter, q: ListState) =>
  queryOptions({
    queryKey: ['accounts', 'partners', f, q],
    queryFn: ({ signal }) =>
      api<TPage<TPartnerRow>>('/api/partners', {
        body: { ...f, createdByText: f.createdByText.trim() || null, country: f.country.trim() || null, ...q },
        signal,
        background: true,
      }),
    placeholderData: keepPreviousData,
  });
