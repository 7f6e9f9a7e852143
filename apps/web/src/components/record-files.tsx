// Placeholder with the agreed props; replaced by the files slice.
export function RecordFiles(_props: { entityType: number; id: number; editable: boolean }) {
  return null;
}
