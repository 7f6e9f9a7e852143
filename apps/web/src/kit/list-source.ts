import type { UseQueryOptions } from '@tanstack/react-query';
import type { ListDeclaration } from '@crm/contract/resources';
import { setJsonCookie } from '../lib/cookies.ts';
import { readCookieState, readSavedFilter, readSavedList, type ListState, type SavedFilter, type SavedList } from '../lib/list-state.ts';

/**
 * A list screen's data, declared once beside its calls: the list its resource declares, its cookies
 * (the spec's names), the filter's typed boxes and the call of a page. Its page spreads it into
 * ListScreen, and its route's loader asks for the same first page (`firstPage`) while the screen's
 * code loads: both start from the same cookies, so the screen finds the answer under the same key.
 */
export type ListSource<F, A> = {
  list: ListDeclaration;
  /** The page, page size and sort, and the filter, each in its cookie. */
  saved?: { list?: SavedList; filter?: SavedFilter<F> };
  /** The filter's texts typed into a box: asked for once typing stops. */
  debounced?: (keyof F & string)[];
  /** Further columns beside the list's own: every described field its row does not hold, chosen in the column chooser (cookie "<testId>.more"). */
  offered?: readonly string[];
  /** The page sizes offered (the spec's, for each list). */
  pageSizes?: readonly number[];
  /** A page of the list for a filter; `more`: the further columns chosen (asked for with the page). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each list's own key
  query: (filter: F, page: ListState, more: string[]) => UseQueryOptions<A, Error, A, any>;
  /** The first page as the cookies stand, where the screen keeps its paging in cookies of its own shape (the properties, the keys, the payments). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each list's own key
  first?: () => UseQueryOptions<A, Error, A, any>;
};

/** A list's source, its filter and answer types inferred from its call. */
export const listSource = <F extends Record<string, unknown>, A>(s: ListSource<F, A>) => s;

/** A list without filters keeps no filter cookie: this one is never written. */
export const NO_FILTER: SavedFilter<Record<string, unknown>> = { cookie: 'NoFilter', initial: {} };
/** A list whose paging the screen holds reads no cookie of the kit's: this one is never written. */
export const NO_LIST: SavedList = { list: 'NoList' };

/** The further columns chosen for a list (kept in the cookie "<list>.more"), only those still offered. */
export const chosenMore = (kept: unknown, offered: readonly string[]): string[] => (Array.isArray(kept) ? offered.filter((k) => kept.includes(k)) : []);

/** The first page the list's screen asks for, as its cookies stand: its route's loader asks for it while the screen's code loads. */
export function firstPage<F, A>(s: ListSource<F, A>) {
  const more = chosenMore(readCookieState<unknown>(`${s.list.testId}.more`, []), s.offered ?? []);
  return s.first ? s.first() : s.query(readSavedFilter(s.saved?.filter ?? (NO_FILTER as SavedFilter<F>)), readSavedList(s.saved?.list ?? NO_LIST), more);
}

/**
 * The list set to show `filter` from its first page (in the page size and order the reader keeps):
 * its cookies are written before the list opens, so the list and its loader read them.
 */
export function openListWith<F, A>(s: ListSource<F, A>, filter: F) {
  // A list whose screen keeps its filter or paging in cookies of its own shape (the properties, the
  // keys, the payments) would open as it was: refused, not silently ignored.
  if (!s.saved?.filter || !s.saved.list) throw new Error(`The list ${s.list.testId} keeps its filter in cookies of its own: it cannot be opened with one`);
  setJsonCookie(s.saved.filter.cookie, filter);
  setJsonCookie(`${s.saved.list.list}.list`, { ...readSavedList(s.saved.list), currentPage: 1 });
}
