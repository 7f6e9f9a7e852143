import { useCallback, useMemo } from 'react';
import type { TFieldType } from '@crm/contract';
import { sameWire, toDraft, type Draft } from '../components/fields/field-values.ts';
import { useRecordAutosave, type RecordAutosaveOptions } from './record-autosave.ts';

export type Drafts = Record<string, Draft>;

type Options<R extends { version: number }> = Omit<RecordAutosaveOptions<R, Drafts>, 'toForm' | 'fieldNames' | 'same' | 'formKey' | 'hold'> & {
  /** The record's editable fields, from its field description. */
  fields: readonly { name: string; type: TFieldType }[];
};

/**
 * The working state and auto-save of a record edited through its field description (a lead, a
 * property): the record kit's auto-save (record-autosave.ts) over one draft per described field.
 */
export function useDescribedEditor<R extends { version: number }>({ fields, ...o }: Options<R>) {
  const toForm = useCallback((r: R): Drafts => Object.fromEntries(fields.map((d) => [d.name, toDraft(d.type, (r as Record<string, unknown>)[d.name])])), [fields]);
  const fieldNames = useMemo(() => fields.map((d) => d.name), [fields]);
  const typeOf = useMemo(() => new Map(fields.map((d) => [d.name, d.type])), [fields]);
  const same = useCallback((a: unknown, b: unknown, k: string) => sameWire(typeOf.get(k) ?? 'text', a, b), [typeOf]);
  const { form: drafts, setForm: setDrafts, yoursReplaced, ...rest } = useRecordAutosave<R, Drafts>({ ...o, toForm, fieldNames, same });
  return { ...rest, drafts, setDrafts, yoursReplaced: (name: string) => yoursReplaced(name) as Draft | undefined };
}
