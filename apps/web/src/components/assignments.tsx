// Placeholder with the agreed props; replaced by the activities/assignments slice.
export function Assignments(_props: { parent: 'account' | 'lead' | 'object' | 'viewing'; parentId: number; editable?: boolean }) {
  return null;
}
