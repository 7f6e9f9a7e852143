import { useCallback, useState } from 'react';
import { getJsonCookie, setJsonCookie } from './cookies.ts';

/**
 * State that survives reloads in a cookie (10 years), as the spec keeps list page sizes, pages and
 * filters. `name` is the cookie, e.g. "OwnerList" or "ObjectList.perPage".
 */
export function useCookieState<T>(name: string, initial: T): [T, (next: T | ((prev: T) => T)) => void] {
  const [value, setValue] = useState<T>(() => {
    const saved = getJsonCookie<T>(name);
    return saved === undefined ? initial : typeof initial === 'object' && initial !== null && !Array.isArray(initial) ? { ...initial, ...saved } : saved;
  });
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

/** Paging and sorting of a list, remembered per list. */
export type ListState = { perPage: number; currentPage: number; sortBy: string; sortDir: 'asc' | 'desc' };
export const useListState = (list: string, defaults: Partial<ListState> = {}) =>
  useCookieState<ListState>(`${list}.list`, { perPage: 20, currentPage: 1, sortBy: 'createdOn', sortDir: 'desc', ...defaults });
