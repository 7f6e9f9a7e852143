import { lazy, Suspense } from 'react';
import { useSectionReady } from './reveal.tsx';

// The activities block sits at the bottom of every record view: its code (the list, the editor,
// the filters) loads beside the record's data instead of with the page, which keeps the record
// views' first download within the route budget (ARCHITECTURE.md, 150 KB gzip).
const ActivityListImpl = lazy(() => import('./activity-list.tsx').then((m) => ({ default: m.ActivityList })));

/** Until its code is here, the section tells <RevealTogether> it is not ready, so nothing moves when it arrives. */
function Loading() {
  useSectionReady('activities', false);
  return null;
}

export function ActivityList(props: { entityType: number; id: number; editable?: boolean }) {
  return (
    <Suspense fallback={<Loading />}>
      <ActivityListImpl {...props} />
    </Suspense>
  );
}
