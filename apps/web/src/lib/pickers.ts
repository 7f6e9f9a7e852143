import { ACCOUNT, LEAD, OBJECT } from '@crm/contract/resources';
import { call } from './api.ts';

/**
 * What the pickers search (a search box that picks one record): accounts by name, phone, e-mail or
 * number; employees; leads; properties by reference number or title. One place, for every screen.
 */
export type TPicked = { id: number; text: string };

/** GET /api/account/search: filter 0 = every account, 1 = employees only, 2 = employees and specialists. */
export const searchAccountHits = (searchStr: string, filter: 0 | 1 | 2, signal?: AbortSignal) => call(ACCOUNT.calls.search, { query: { searchStr, filter } }, { signal });

/** Any account, as a picker lists it. */
export const searchAccounts = async (searchStr: string, signal: AbortSignal): Promise<TPicked[]> =>
  (await searchAccountHits(searchStr, 0, signal)).items.map((i) => ({ id: i.id, text: i.description }));

/** The employees, as a picker lists them. */
export const searchEmployees = async (searchStr: string, signal: AbortSignal): Promise<TPicked[]> =>
  (await searchAccountHits(searchStr, 1, signal)).items.map((i) => ({ id: i.id, text: i.description }));

/** Leads by their client's name or number. */
export const searchLeadsQuick = async (searchStr: string, signal: AbortSignal): Promise<TPicked[]> =>
  (await call(LEAD.calls.searchQuick, { query: { searchStr } }, { signal })).items.map((i) => ({ id: i.id, text: i.description }));

/** Properties by reference number or title, named by their number first. */
export const searchObjectsByRef = async (searchStr: string, signal: AbortSignal): Promise<(TPicked & { referenceNumber: string })[]> =>
  (await call(OBJECT.calls.searchByRefNumOrTitle, { query: { searchStr, options: 'no' } }, { signal })).items.map((i) => ({
    id: i.id,
    text: i.description.includes(i.referenceNumber) ? i.description : `#${i.referenceNumber} ${i.description}`,
    referenceNumber: i.referenceNumber,
  }));
