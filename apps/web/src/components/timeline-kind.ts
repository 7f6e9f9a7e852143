import { TIMELINE_KINDS, type TTimelineKind } from '@crm/contract/constants';
import { useCookieState } from '../lib/list-state.ts';

/**
 * What a record's activities block shows (issue 46): given mail (an account's, a property's, a
 * lead's or a deal's), the kind chosen last (a cookie, "All" at first); else its activities. Read by
 * the block and by its placeholder, so that the title does not change when the block's code arrives.
 */
export function useTimelineKind(withMail: boolean): [TTimelineKind, (kind: TTimelineKind) => void] {
  const [chosen, setKind] = useCookieState<TTimelineKind>('ActivityList.kind', 'all');
  return [withMail && TIMELINE_KINDS.includes(chosen) ? chosen : 'activities', setKind];
}

/** The block's title for what it shows. */
export const TIMELINE_TITLE = { all: 'activities.timeline.title', activities: 'activities.title', mail: 'mailbox.tab' } as const satisfies Record<TTimelineKind, string>;
