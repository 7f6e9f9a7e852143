import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TAccountRow, TClientRow, TEmployeRow, TOwnerRow, TPartnerRow, TSelectOption, TSourceRow, TSpecialistRow } from '@crm/contract';
import { api } from '../../../lib/api.ts';
import { readSavedFilter, readSavedList, type ListState, type SavedFilter, type SavedList } from '../../../lib/list-state.ts';

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

/** Each list's cookies (the spec's names) and first sort: read by its screen and by its route's loader. */
export const OWNER_LIST: SavedList = { list: 'OwnerList' };
export const SPECIALIST_LIST: SavedList = { list: 'ProfessionalList', defaults: { sortBy: 'name', sortDir: 'asc' } };
export const SOURCE_LIST: SavedList = { list: 'SourceList', defaults: { sortBy: 'name', sortDir: 'asc' } };
export const EMPLOYE_LIST: SavedList = { list: 'EmployeList', defaults: { sortBy: 'name', sortDir: 'asc' } };
export const ACCOUNT_LIST: SavedList = { list: 'AccountList' };
export const CLIENT_LIST: SavedList = { list: 'ClientList' };
export const PARTNER_LIST: SavedList = { list: 'PartnerList' };

export const ownersQuery = getList<TOwnerRow>('owners', '/api/owner');
export const specialistsQuery = getList<TSpecialistRow>('specialists', '/api/professional');
export const sourcesQuery = getList<TSourceRow>('sources', '/api/source');
export const employesQuery = getList<TEmployeRow>('employes', '/api/employe');
export const accountsQuery = getList<TAccountRow>('accounts', '/api/account');

/** Filters of the client list (cookie "ClientList.filter"). */
export type TClientFilter = { serviceFilter: number; sources: number[]; startDate: string | null; endDate: string | null; lastName: string };
export const NO_CLIENT_FILTER: TClientFilter = { serviceFilter: 0, sources: [], startDate: null, endDate: null, lastName: '' };
export const CLIENT_FILTER: SavedFilter<TClientFilter> = { cookie: 'ClientList.filter', initial: NO_CLIENT_FILTER };
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

export const NO_PARTNER_FILTER: TPartnerFilter = { createdBy: null, createdByText: '', country: '', createdOnStart: null, createdOnEnd: null };
export const PARTNER_FILTER: SavedFilter<TPartnerFilter> = { cookie: 'PartnerList.filter', initial: NO_PARTNER_FILTER };

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

/** The first page each list screen asks for, as its cookies stand: its route's loader asks for it while the screen's code loads. */
export const firstPages = {
  owners: () => ownersQuery(readSavedList(OWNER_LIST)),
  specialists: () => specialistsQuery(readSavedList(SPECIALIST_LIST)),
  sources: () => sourcesQuery(readSavedList(SOURCE_LIST)),
  employes: () => employesQuery(readSavedList(EMPLOYE_LIST)),
  accounts: () => accountsQuery(readSavedList(ACCOUNT_LIST)),
  clients: () => clientsQuery(readSavedFilter(CLIENT_FILTER), readSavedList(CLIENT_LIST)),
  partners: () => partnersQuery(readSavedFilter(PARTNER_FILTER), readSavedList(PARTNER_LIST)),
};
