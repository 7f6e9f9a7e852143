import { lazy, startTransition, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { nextTask } from '../lib/next-task.ts';
import { useSectionReady, WhenNear } from './reveal.tsx';
import type { TMailRecord } from './mail-compose.tsx';
import { TIMELINE_TITLE, useTimelineKind } from './timeline-kind.ts';

// The activities block sits at the bottom of every record view: its code (the list, the editor,
// the filters) loads beside the record's data instead of with the page, which keeps the record
// views' first download within the route budget (ARCHITECTURE.md, 150 KB gzip).
const load = () => import('./activity-list.tsx');
const ActivityListImpl = lazy(() => load().then((m) => ({ default: m.ActivityList })));

/**
 * Whether the list may be drawn: once its code is here, at low priority. Drawn as the code's arrival
 * woke it, the list (filters, pager, table) was one unbroken task that held a phone's main thread
 * for over 100 ms while the record opened; a transition draws it in slices between other work.
 */
function useCodeHere() {
  const [here, setHere] = useState(false);
  useEffect(() => {
    let live = true;
    const show = () => live && startTransition(() => setHere(true));
    // Asked in a task of its own: the import's module preloads are not part of the record's first
    // commit. Failed (offline, a newer build deployed): drawn all the same, so the lazy list's own
    // failure shows as it always did, not a placeholder loading for ever.
    void nextTask().then(load).then(show, show);
    return () => {
      live = false;
    };
  }, []);
  return here;
}

/** The list once its code is here: mounted where the block is drawn (on a phone, only when near). */
function Drawn({ placeholder, ...props }: ListProps & { placeholder: ReactNode }) {
  const here = useCodeHere();
  return here ? <ActivityListImpl {...props} /> : <Loading placeholder={placeholder} />;
}

/**
 * Until its code is here, the section tells <RevealTogether> it is not ready, so nothing moves when
 * it arrives; shown (after the reveal), it keeps the placeholder's place.
 */
function Loading({ placeholder }: { placeholder: ReactNode }) {
  useSectionReady('activities', false);
  return placeholder;
}

/**
 * The activities of a record. On a phone, where they are far below the first screen, the block is
 * drawn, and its code and rows asked for, only when the reader scrolls near it (or tabs into it);
 * until then a card of its title holds its place (decision 011).
 */
type ListProps = { entityType: number; id: number; editable?: boolean; mail?: TMailRecord };

export function ActivityList({ armed, ...props }: ListProps & { armed?: boolean }) {
  const { t } = useTranslation();
  // Titled as the block will be (its activities, its mail or both), so the title stays when it is drawn.
  const [kind] = useTimelineKind(!!props.mail);
  const title = t(TIMELINE_TITLE[kind]);
  const placeholder = (
    <section className="section-placeholder" aria-busy="true" data-testid="activity-list-placeholder">
      <h3 className="section-placeholder-title">{title}</h3>
    </section>
  );
  return (
    <WhenNear placeholder={placeholder} label={title} armed={armed}>
      <Suspense fallback={<Loading placeholder={placeholder} />}>
        <Drawn {...props} placeholder={placeholder} />
      </Suspense>
    </WhenNear>
  );
}
