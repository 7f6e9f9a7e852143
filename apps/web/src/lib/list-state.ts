import { useCallback, useMemo, useState } from 'react';
import { cookieNames, deleteCookie, getJsonCookie, setJsonCookie } from './cookies.ts';

/**
 * State that survives reloads in a cookie (10 years), as the spec keeps list page sizes, pages and
 * filters. `name` is the cookie, e.g. "OwnerList" or "ObjectList.perPage".
 */
export function useCookieState<T>(name: string, initial: T, family?: CookieFamily): [T, (next: T | ((prev: T) => T)) => void] {
  const [value, setValue] = useState<T>(() => readCookieState(name, initial));
  const set = useCallback(
    (next: T | ((prev: T) => T)) => {
      setValue((prev) => {
        const v = typeof next === 'function' ? (next as (p: T) => T)(prev) : next;
        if (family) keepInFamily(family, name, JSON.stringify(v) === JSON.stringify(initial) ? undefined : v);
        else setJsonCookie(name, v);
        return v;
      });
    },
    [name, initial, family],
  );
  return [value, set];
}

/**
 * Cookies kept per record (a statement's filter per account): one cookie each would grow without
 * bound, until the request's Cookie header passes the server's limit (16 KB, some 110 statements)
 * and every request fails with 431. A family keeps the `keep` most recently changed ones, listed
 * newest first in its `index` cookie; a value set back to its defaults removes its cookie.
 */
export type CookieFamily = { index: string; keep: number; prefix: string };

export function keepInFamily(family: CookieFamily, name: string, value: unknown) {
  const listed = getJsonCookie<unknown>(family.index);
  const names = Array.isArray(listed) ? listed.filter((n): n is string => typeof n === 'string' && n !== name && n.startsWith(family.prefix)) : [];
  if (value === undefined) deleteCookie(name);
  else {
    setJsonCookie(name, value);
    names.unshift(name);
  }
  names.splice(family.keep);
  if (names.length) setJsonCookie(family.index, names);
  else deleteCookie(family.index);
  // Whatever else of the family the browser holds goes: the evicted, and those written before
  // the family was kept.
  const kept = new Set([...names, family.index]);
  for (const other of cookieNames()) if (other.startsWith(family.prefix) && !kept.has(other)) deleteCookie(other);
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
/**
 * A filter kept in a cookie. `read`, when given, makes what was kept usable (a value of an old shape,
 * or one edited by hand, taken back to its default), for the screen and its route's loader alike.
 */
export type SavedFilter<T> = { cookie: string; initial: T; family?: CookieFamily; read?: (kept: T) => T };
export const useSavedList = (c: SavedList) => useListState(c.list, c.defaults);
export const readSavedList = (c: SavedList): ListState => readCookieState(`${c.list}.list`, listStart(c.defaults ?? {}));
export const useSavedFilter = <T,>(c: SavedFilter<T>): [T, (next: T | ((prev: T) => T)) => void] => {
  const [kept, set] = useCookieState<T>(c.cookie, c.initial, c.family);
  const read = c.read;
  const value = useMemo(() => (read ? read(kept) : kept), [read, kept]);
  return [value, set];
};
export const readSavedFilter = <T,>(c: SavedFilter<T>): T => {
  const kept = readCookieState(c.cookie, c.initial);
  return c.read ? c.read(kept) : kept;
};
