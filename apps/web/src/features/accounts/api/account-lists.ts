import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TListQuery } from '@crm/contract';
import { ACCOUNT, type AnswerOf, type ListDeclaration } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';
import type { ListState, SavedList } from '../../../lib/list-state.ts';
import { listSource } from '../../../kit/list-source.ts';

/** The paging and sort as kept (a cookie's sort as it was saved: the server answers one it does not know with a 400, as it always has). */
const wireList = (q: ListState) => ({ ...q, sortBy: q.sortBy as TListQuery['sortBy'] });

/** The filter of the lists answered by a GET: the search box (a name, phone or e-mail, or a part of one). */
export type TSearchFilter = { search: string };
export const NO_SEARCH: TSearchFilter = { search: '' };
/** The search as asked: none when only spaces were typed. */
const searchOf = (f: TSearchFilter) => String(f.search ?? '').trim() || undefined;

/** A list answered by a GET with the search, paging and sorting in the query string: its cookies (the spec's names, "<list>.filter" the search's) and first sort, and its call. */
const getList = <A,>(list: ListDeclaration, cookie: string, get: (query: ReturnType<typeof wireList> & { search?: string }, signal: AbortSignal) => Promise<A>, defaults?: SavedList['defaults']) =>
  listSource({
    list,
    saved: { list: { list: cookie, defaults }, filter: { cookie: `${cookie}.filter`, initial: NO_SEARCH } },
    debounced: ['search'],
    query: (f: TSearchFilter, q: ListState) =>
      queryOptions({
        queryKey: ['accounts', list.testId, searchOf(f) ?? '', q],
        queryFn: ({ signal }) => get({ ...wireList(q), search: searchOf(f) }, signal),
        placeholderData: keepPreviousData,
      }),
  });

/** Filters of the client list (cookie "ClientList.filter"). */
export type TClientFilter = { serviceFilter: number; sources: number[]; startDate: string | null; endDate: string | null; lastName: string; search: string };
export const NO_CLIENT_FILTER: TClientFilter = { serviceFilter: 0, sources: [], startDate: null, endDate: null, lastName: '', search: '' };
export type TClientSearchAnswer = AnswerOf<typeof ACCOUNT.calls.clients>;

const clientsQuery = (f: TClientFilter, q: ListState) =>
  queryOptions({
    queryKey: ['accounts', 'clients', f, q],
    queryFn: ({ signal }) =>
      call(ACCOUNT.calls.clients, { body: { ...f, lastName: f.lastName.trim() || null, search: searchOf(f) ?? null, ...wireList(q) } }, { signal, background: true }),
    placeholderData: keepPreviousData,
  });

/** Filters of the partner list (cookie "PartnerList.filter"). */
export type TPartnerFilter = { createdBy: number | null; createdByText: string; country: string; createdOnStart: string | null; createdOnEnd: string | null; search: string };

export const NO_PARTNER_FILTER: TPartnerFilter = { createdBy: null, createdByText: '', country: '', createdOnStart: null, createdOnEnd: null, search: '' };

const partnersQuery = (f: TPartnerFilter, q: ListState) =>
  queryOptions({
    queryKey: ['accounts', 'partners', f, q],
    queryFn: ({ signal }) =>
      call(ACCOUNT.calls.partners, { body: { ...f, createdByText: f.createdByText.trim() || null, country: f.country.trim() || null, search: searchOf(f) ?? null, ...wireList(q) } }, { signal, background: true }),
    placeholderData: keepPreviousData,
  });

/** Each account list as its screen and its route's loader are given it: the list its resource declares, its cookies and its call. */
const BY_NAME = { sortBy: 'name', sortDir: 'asc' } as const;
export const OWNERS = getList(ACCOUNT.lists.owners, 'OwnerList', (query, signal) => call(ACCOUNT.calls.owners, { query }, { signal }));
export const SPECIALISTS = getList(ACCOUNT.lists.specialists, 'ProfessionalList', (query, signal) => call(ACCOUNT.calls.professionals, { query }, { signal }), BY_NAME);
export const SOURCES = getList(ACCOUNT.lists.sources, 'SourceList', (query, signal) => call(ACCOUNT.calls.sources, { query }, { signal }), BY_NAME);
export const EMPLOYES = getList(ACCOUNT.lists.employes, 'EmployeList', (query, signal) => call(ACCOUNT.calls.employes, { query }, { signal }), BY_NAME);
export const ACCOUNTS = getList(ACCOUNT.lists.accounts, 'AccountList', (query, signal) => call(ACCOUNT.calls.list, { query }, { signal }));
export const CLIENTS = listSource({ list: ACCOUNT.lists.clients, saved: { list: { list: 'ClientList' }, filter: { cookie: 'ClientList.filter', initial: NO_CLIENT_FILTER } }, debounced: ['lastName', 'search'], query: clientsQuery });
export const PARTNERS = listSource({ list: ACCOUNT.lists.partners, saved: { list: { list: 'PartnerList' }, filter: { cookie: 'PartnerList.filter', initial: NO_PARTNER_FILTER } }, debounced: ['country', 'search'], query: partnersQuery });
