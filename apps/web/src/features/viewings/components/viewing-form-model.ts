import type { Picked } from '../../../components/search-picker.tsx';
import { mergeOnConflict, mergeRowsOnConflict } from '../../../lib/conflict-merge.ts';
import type { Merged } from '../../../kit/record.tsx';
import type { TViewingAnswer } from '../api/viewings.ts';

/** Activities link to a viewing with link kind 7. */
export const ENTITY_VIEWING = 7;

/** The viewing's form: its fields as the inputs hold them, from the answer and back. */
export type Row = { objectId: number; objectReferenceNumber: string; title: string | null; result: number | null; comment: string };
export type Form = { createdDate: string | null; createdTime: string; viewingDate: string | null; viewingTime: string; demand: Picked; results: Row[]; agent: Picked };

/** A stored date-time split for its two inputs; one shorter than 19 characters is left alone (spec). */
export const split = (dt: string | null): [string | null, string] => (dt && dt.length >= 19 ? [dt.slice(0, 10), dt.slice(11, 16)] : [null, '']);
export const join = (date: string | null, time: string): string | null => (date ? `${date}T${(time || '00:00').slice(0, 5)}:00` : null);

export function toForm(v: TViewingAnswer): Form {
  const [createdDate, createdTime] = split(v.appointmentCreated);
  const [viewingDate, viewingTime] = split(v.dateOfViewing);
  return {
    createdDate,
    createdTime,
    viewingDate,
    viewingTime,
    demand: v.demandId ? { id: v.demandId, text: v.demand ?? `#${v.demandId}` } : null,
    // A new viewing's agent: the reader unless another is chosen (a stored one's are its assignments).
    agent: v.agent ?? null,
    results: v.results.map((r) => ({ objectId: r.objectId, objectReferenceNumber: r.objectReferenceNumber ?? '', title: r.title ?? null, result: r.result, comment: r.comment ?? '' })),
  };
}

/** The viewing as the API takes it; its agent only when made (a stored one's are its assignments). */
export function viewingBody(form: Form, viewing: TViewingAnswer, create: boolean) {
  return {
    ...(viewing.id != null ? { id: viewing.id, version: viewing.version } : {}),
    appointmentCreated: join(form.createdDate, form.createdTime),
    dateOfViewing: join(form.viewingDate, form.viewingTime),
    demandId: form.demand?.id ?? null,
    results: form.results.map((r) => ({ objectId: r.objectId, result: r.result, comment: r.comment.trim() || null })),
    ...(create ? { assignedTo: form.agent?.id ?? null } : {}),
  };
}

/** Someone else saved first: the fields merged one by one, the properties row by row (a comment typed on one survives their result on another). */
export function mergeViewingForms(loaded: Form, form: Form, theirs: Form): Merged<Form> & { lostRows: string[] } {
  const flat = mergeOnConflict({ ...loaded, results: [] }, { ...form, results: [] }, { ...theirs, results: [] });
  const rows = mergeRowsOnConflict(loaded.results, form.results, theirs.results, (r) => r.objectId, (r) => `#${r.objectReferenceNumber}`);
  return {
    next: { ...flat.next, results: rows.rows },
    changed: [...flat.changed, ...(rows.changed || rows.lost.length ? ['results'] : [])],
    lost: [...flat.lost, ...(rows.lost.length ? ['results'] : [])],
    kept: flat.changed.length > flat.lost.length || rows.changed,
    lostRows: rows.lost,
  };
}
