import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TListQuery } from '@crm/contract';
import { ACCOUNT, type AnswerOf } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';
import { readSavedFilter, readSavedList, type ListState, type SavedFilter, type SavedList } from '../../../lib/list-state.ts';

/** The paging and sort as kept (a cookie's sort as it was saved: the server answers one it does not know with a 400, as it always has). */
const wireList = (q: ListState) => ({ ...q, sortBy: q.sortBy as TListQuery['sortBy'] });

/** The filter of the lists answered by a GET: the search box (a name, phone or e-mail, or a part of one). */
export type TSearchFilter = { search: string };
export const NO_SEARCH: TSearchFilter = { search: '' };
/** The search as asked: none when only spaces were typed. */
const searchOf = (f: TSearchFilter) => String(f.search ?? '').trim() || undefined;

/** The lists answered by a GET with the search, paging and sorting in the query string. */
const getList =
  <A>(name: string, get: (query: ReturnType<typeof wireList> & { search?: string }, signal: AbortSignal) => Promise<A>) =>
  (f: TSearchFilter, q: ListState) =>
    queryOptions({
      queryKey: ['accounts', name, searchOf(f) ?? '', q],
      queryFn: ({ signal }) => get({ ...wireList(q), search: searchOf(f) }, signal),
      placeholderData: keepPreviousData,
    });

/** Each list's cookies (the spec's names) and first sort: read by its screen and by its route's loader. */
export const OWNER_LIST: SavedList = { list: 'OwnerList' };
export const SPECIALIST_LIST: SavedList = { list: 'ProfessionalList', defaults: { sortBy: 'name', sortDir: 'asc' } };
export const SOURCE_LIST: SavedList = { list: 'SourceList', defaults: { sortBy: 'name', sortDir: 'asc' } };
export const EMPLOYE_LIST: SavedList = { list: 'EmployeList', defaults: { sortBy: 'name', sortDir: 'asc' } };
export const ACCOUNT_LIST: SavedList = { list: 'AccountList' };
/** Each GET list's search, kept as its other filters are (cookie "<list>.filter"). */
const searchKept = (list: SavedList): SavedFilter<TSearchFilter> => ({ cookie: `${list.list}.filter`, initial: NO_SEARCH });
export const OWNER_SEARCH = searchKept(OWNER_LIST);
export const SPECIALIST_SEARCH = searchKept(SPECIALIST_LIST);
export const SOURCE_SEARCH = searchKept(SOURCE_LIST);
export const EMPLOYE_SEARCH = searchKept(EMPLOYE_LIST);
export const ACCOUNT_SEARCH = searchKept(ACCOUNT_LIST);
export const CLIENT_LIST: SavedList = { list: 'ClientList' };
export const PARTNER_LIST: SavedList = { list: 'PartnerList' };

export const ownersQuery = getList('owners', (query, signal) => call(ACCOUNT.calls.owners, { query }, { signal }));
export const specialistsQuery = getList('specialists', (query, signal) => call(ACCOUNT.calls.professionals, { query }, { signal }));
export const sourcesQuery = getList('sources', (query, signal) => call(ACCOUNT.calls.sources, { query }, { signal }));
export const employesQuery = getList('employes', (query, signal) => call(ACCOUNT.calls.employes, { query }, { signal }));
export const accountsQuery = getList('accounts', (query, signal) => call(ACCOUNT.calls.list, { query }, { signal }));

/** Filters of the client list (cookie "ClientList.filter"). */
export type TClientFilter = { serviceFilter: number; sources: number[]; startDate: string | null; endDate: string | null; lastName: string; search: string };
export const NO_CLIENT_FILTER: TClientFilter = { serviceFilter: 0, sources: [], startDate: null, endDate: null, lastName: '', search: '' };
export const CLIENT_FILTER: SavedFilter<TClientFilter> = { cookie: 'ClientList.filter', initial: NO_CLIENT_FILTER };
export type TClientSearchAnswer = AnswerOf<typeof ACCOUNT.calls.clients>;

export const clientsQuery = (f: TClientFilter, q: ListState) =>
  queryOptions({
    queryKey: ['accounts', 'clients', f, q],
    queryFn: ({ signal }) =>
      call(ACCOUNT.calls.clients, { body: { ...f, lastName: f.lastName.trim() || null, search: searchOf(f) ?? null, ...wireList(q) } }, { signal, background: true }),
    placeholderData: keepPreviousData,
  });

/** Filters of the partner list (cookie "PartnerList.filter"). */
export type TPartnerFilter = { createdBy: number | null; createdByText: string; country: string; createdOnStart: string | null; createdOnEnd: string | null; search: string };

export const NO_PARTNER_FILTER: TPartnerFilter = { createdBy: null, createdByText: '', country: '', createdOnStart: null, createdOnEnd: null, search: '' };
export const PARTNER_FILTER: SavedFilter<TPartnerFilter> = { cookie: 'PartnerList.filter', initial: NO_PARTNER_FILTER };

export const partnersQuery = (f: TPartnerFilter, q: ListState) =>
  queryOptions({
    queryKey: ['accounts', 'partners', f, q],
    queryFn: ({ signal }) =>
      call(ACCOUNT.calls.partners, { body: { ...f, createdByText: f.createdByText.trim() || null, country: f.country.trim() || null, search: searchOf(f) ?? null, ...wireList(q) } }, { signal, background: true }),
    placeholderData: keepPreviousData,
  });

/** The first page each list screen asks for, as its cookies stand: its route's loader asks for it while the screen's code loads. */
export const firstPages = {
  owners: () => ownersQuery(readSavedFilter(OWNER_SEARCH), readSavedList(OWNER_LIST)),
  specialists: () => specialistsQuery(readSavedFilter(SPECIALIST_SEARCH), readSavedList(SPECIALIST_LIST)),
  sources: () => sourcesQuery(readSavedFilter(SOURCE_SEARCH), readSavedList(SOURCE_LIST)),
  employes: () => employesQuery(readSavedFilter(EMPLOYE_SEARCH), readSavedList(EMPLOYE_LIST)),
  accounts: () => accountsQuery(readSavedFilter(ACCOUNT_SEARCH), readSavedList(ACCOUNT_LIST)),
  clients: () => clientsQuery(readSavedFilter(CLIENT_FILTER), readSavedList(CLIENT_LIST)),
  partners: () => partnersQuery(readSavedFilter(PARTNER_FILTER), readSavedList(PARTNER_LIST)),
};

/** Each account list as its screen is given it: the list its resource declares, its cookies (the spec's names) and its call. */
export const OWNERS = { list: ACCOUNT.lists.owners, saved: { list: OWNER_LIST, filter: OWNER_SEARCH }, query: ownersQuery };
export const SPECIALISTS = { list: ACCOUNT.lists.specialists, saved: { list: SPECIALIST_LIST, filter: SPECIALIST_SEARCH }, query: specialistsQuery };
export const SOURCES = { list: ACCOUNT.lists.sources, saved: { list: SOURCE_LIST, filter: SOURCE_SEARCH }, query: sourcesQuery };
export const EMPLOYES = { list: ACCOUNT.lists.employes, saved: { list: EMPLOYE_LIST, filter: EMPLOYE_SEARCH }, query: employesQuery };
export const ACCOUNTS = { list: ACCOUNT.lists.accounts, saved: { list: ACCOUNT_LIST, filter: ACCOUNT_SEARCH }, query: accountsQuery };
export const CLIENTS = { list: ACCOUNT.lists.clients, saved: { list: CLIENT_LIST, filter: CLIENT_FILTER }, initial: NO_CLIENT_FILTER, query: clientsQuery };
export const PARTNERS = { list: ACCOUNT.lists.partners, saved: { list: PARTNER_LIST, filter: PARTNER_FILTER }, initial: NO_PARTNER_FILTER, query: partnersQuery };
