import { useCallback, useState } from 'react';
import { getJsonCookie, setJsonCookie } from './cookies.ts';

/**
 * State that survives reloads in a cookie (10 years), as the spec keeps list page sizes, pages and
 * filters. `name` is the cookie, e.g. "OwnerList" or "ObjectList.perPage".
 */
export function useCookieState<T>(name: string, initial: T): [T, (next: T | ((prev: T) => T)) => void] {
  const [value, setValue] = useState<T>(() => readCookieState(name, initial));
  const set = useCallback(
    (next: T | ((prev: T) => T)) => {
      setValue((prev) => {
        const v = typeof next === 'function' ? (next as (p: T) => T)(prev) : next;
        setJsonCookie(name, v);
        return v;
      });
    },
    [name],
  );
  return [value, set];
}

/** What a cookie holds now, an object merged over its defaults: where useCookieState starts from. */
export function readCookieState<T>(name: string, initial: T): T {
  const saved = getJsonCookie<T>(name);
  return saved === undefined ? initial : typeof initial === 'object' && initial !== null && !Array.isArray(initial) ? { ...initial, ...saved } : saved;
}

/** Paging and sorting of a list, remembered per list. */
export type ListState = { perPage: number; currentPage: number; sortBy: string; sortDir: 'asc' | 'desc' };
const listStart = (defaults: Partial<ListState>): ListState => ({ perPage: 20, currentPage: 1, sortBy: 'createdOn', sortDir: 'desc', ...defaults });
export const useListState = (list: string, defaults: Partial<ListState> = {}) => useCookieState<ListState>(`${list}.list`, listStart(defaults));

/**
 * A list's cookies described once, for its screen (the hooks) and its route loader (the readers),
 * which asks for the same first page while the screen's code loads: both start from the same state,
 * so the screen finds the answer under the same query key.
 */
export type SavedList = { list: string; defaults?: Partial<ListState> };
export type SavedFilter<T> = { cookie: string; initial: T };
export const useSavedList = (c: SavedList) => useListState(c.list, c.defaults);
export const readSavedList = (c: SavedList): ListState => readCookieState(`${c.list}.list`, listStart(c.defaults ?? {}));
export const useSavedFilter = <T,>(c: SavedFilter<T>) => useCookieState<T>(c.cookie, c.initial);
export const readSavedFilter = <T,>(c: SavedFilter<T>): T => readCookieState(c.cookie, c.initial);
