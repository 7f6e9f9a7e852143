import { queryOptions } from '@tanstack/react-query';
import type { TSessionUser } from '@crm/contract';
import { SHELL } from '@crm/contract/resources';
import { call } from '../../lib/api.ts';
import { agencyTodayDate } from '../../lib/agency-clock.ts';
import { isoDay } from '../../lib/format.ts';
import { readCookieState } from '../../lib/list-state.ts';
import { hasBranch } from '../../lib/session.ts';
import { calendarQuery } from '../../features/viewings/api/viewings.ts';

/** GET /api/home: the home page's recent changes. Read by the page, asked early by its route. */
export const homeQuery = () => queryOptions({ queryKey: ['home'], queryFn: ({ signal }) => call(SHELL.calls.home, {}, { signal }) });

/** Whose viewings the home page's day shows: the reader's own, or everyone's (kept in a cookie). */
export const HOME_TODAY_COOKIE = 'Home.today';
export type HomeTodayWhose = 'mine' | 'all';

/**
 * The home page's day: today's calendar (viewings and, for a user without a branch, the short lets'
 * check-ins and check-outs), for the reader's own viewings when they have an account and chose so.
 */
export const homeTodayQuery = (session: TSessionUser | null, whose: HomeTodayWhose = readCookieState<HomeTodayWhose>(HOME_TODAY_COOKIE, 'mine')) => {
  const today = isoDay(agencyTodayDate());
  const accountId = whose === 'mine' ? (session?.accountId ?? null) : null;
  return calendarQuery(today, today, accountId, !hasBranch(session));
};
