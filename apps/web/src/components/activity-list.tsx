// Placeholder with the agreed props; replaced by the activities slice.
export function ActivityList(_props: { entityType: number; id: number; editable?: boolean }) {
  return null;
}
