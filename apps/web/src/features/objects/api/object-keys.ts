import { recordQuery } from '../../../kit/record-query.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TObjectKeyLoanEdit } from '@crm/contract';
import { href, OBJECT_KEY, type RequestOf } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';
import { getJsonCookie } from '../../../lib/cookies.ts';
import { readSavedFilter, type SavedFilter } from '../../../lib/list-state.ts';
import { listSource } from '../../../kit/list-source.ts';

/** `holder`: anyone who held the key, now or before (a name in any script, Greeklish too). */
export type TKeyListFilter = { referenceNumber: string; holder?: string; objectId?: number; perPage: number; currentPage: number };
/** A key saved (POST /api/ObjectKeys/edit): new (no id) or changed (id and version); `newLoan`: Lend again. */
export type TKeyEdit = RequestOf<typeof OBJECT_KEY.calls.update>['body'];

/** The key form for a new key of a property; Save and Cancel come back to the property. */
export const addKeyPath = (objectId: number) => href(OBJECT_KEY.screens.add, undefined, { objectId });
/** A key's form. */
export const keyPath = (id: number) => href(OBJECT_KEY.screens.view, { id });

export const keyKeys = { all: ['objectKeys'] as const, edit: (id: number) => ['objectKeys', 'edit', id] as const };

/** Cookies of the keys list: the page size (default 10; a saved one wins) and the filter. */
export const KEYS_PER_PAGE_COOKIE = 'ObjectKeys.perPage';
export type TKeysKept = { referenceNumber: string; holder: string; currentPage: number };
export const KEYS_FILTER: SavedFilter<TKeysKept> = {
  cookie: 'ObjectKeys.filter',
  initial: { referenceNumber: '', holder: '', currentPage: 1 },
};
const KEYS_DEFAULT_PER_PAGE = 10;
/** A saved page size that is not a number falls back to 20, as the spec says. */
const KEYS_FALLBACK_PER_PAGE = 20;

/** The page size a saved cookie value means. */
export function keysPerPage(saved: unknown): number {
  if (saved === undefined) return KEYS_DEFAULT_PER_PAGE;
  const n = Number(saved);
  return Number.isInteger(n) && n > 0 ? n : KEYS_FALLBACK_PER_PAGE;
}

/** GET /api/ObjectKeys: by reference-number prefix, by holder, or one property's; paged. */
export const objectKeysQuery = (f: TKeyListFilter) =>
  queryOptions({
    queryKey: ['objectKeys', 'list', f],
    queryFn: ({ signal }) => call(OBJECT_KEY.calls.list, { query: { ...f } }, { signal, background: true }),
    placeholderData: keepPreviousData,
  });
/** The register's filter as the screen shows it (its page is kept in the same cookie). */
export type TKeysFilter = { referenceNumber: string; holder: string };
/** The register's page for its filter as typed (the texts trimmed). */
const keysQuery = (f: TKeysFilter, page: { perPage: number; currentPage: number }) =>
  objectKeysQuery({ referenceNumber: f.referenceNumber.trim(), holder: f.holder.trim(), perPage: page.perPage, currentPage: page.currentPage });

/** GET /api/ObjectKeys/edit/{id}: the key and its lending history, always the current version (the form's save is guarded by it). */
export const objectKeyQuery = (id: number) =>
  recordQuery(keyKeys.edit(id), OBJECT_KEY.calls.edit, id);

export const saveObjectKey = (body: TKeyEdit, changeKey?: string) => call(OBJECT_KEY.calls.update, { body }, { changeKey });
/** POST /api/ObjectKeys/loan: one loan of the history corrected, based on its version; answers the key. */
export const saveKeyLoan = (body: TObjectKeyLoanEdit, changeKey?: string) => call(OBJECT_KEY.calls.updateLoan, { body }, { changeKey });
/** DELETE /api/ObjectKeys/loan/{id}?version=: a loan recorded by mistake; answers the key. */
export const deleteKeyLoan = (id: number, version: number, changeKey?: string) => call(OBJECT_KEY.calls.removeLoan, { params: { id }, query: { version } }, { changeKey });

/** Whether the agency holds the key, and whether it is out (lib/key-state.ts: the viewings read them too). */
export { keyHeld, keyOut } from '../../../lib/key-state.ts';
export const deleteObjectKey = (id: number) => call(OBJECT_KEY.calls.remove, { params: { id } });

/** The keys register: its typed boxes, its call and its first page (its page size and filter in cookies of their own, held by the screen), for its screen and its route's loader. */
export const KEYS = listSource({
  list: OBJECT_KEY.list,
  debounced: ['referenceNumber', 'holder'],
  query: keysQuery,
  first: () => {
    const { currentPage, ...filter } = readSavedFilter(KEYS_FILTER);
    return keysQuery(filter, { perPage: keysPerPage(getJsonCookie<unknown>(KEYS_PER_PAGE_COOKIE)), currentPage });
  },
});
