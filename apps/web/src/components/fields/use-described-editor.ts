import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFieldType } from '@crm/contract';
import { ApiError } from '../../lib/api.ts';
import { showBanner } from '../../lib/banner.ts';
import { bodyChangeKey } from '../../lib/change-key.ts';
import { splitOnConflict, withYours } from '../../lib/conflict-merge.ts';
import { NotSaved, refusedErrors, saveAround, type Refused } from '../../lib/refused-fields.ts';
import { useAutosave, type AutosaveStatus } from '../../lib/use-autosave.ts';
import { useUnsavedGuard } from '../../lib/unsaved-guard.tsx';
import { sameWire, toDraft, type Draft } from './field-values.ts';

export type Drafts = Record<string, Draft>;

type Options<R extends { version: number }> = {
  initial: R;
  /** The record's editable fields, from its field description. */
  fields: readonly { name: string; type: TFieldType }[];
  /** The drafts as the API takes them (select lists may come from the record itself). */
  toWires: (drafts: Drafts, record: R) => Record<string, unknown>;
  /** Sends the changed fields with the version they are based on, and the change's Idempotency-Key. */
  update: (body: Record<string, unknown> & { version: number }, changeKey: string) => Promise<R>;
  /** Names the record in the change's key ("object-12"): the same fields and version of another record are another change. */
  recordKey: string;
  /** A saved (or reloaded) record, for the other screens' caches. */
  publish: (record: R) => void;
  /** The banner's addition when the other person changed some of this user's fields too. */
  conflictKept: (labels: string[]) => string;
  fieldLabel: (name: string) => string;
  onStatus: (s: AutosaveStatus) => void;
};

/**
 * The working state and auto-save of a record edited through its field description (a lead, a
 * property). Every change is saved about 400 ms later with the version it is based on; a field the
 * server refused is held back and the rest saved (lib/refused-fields.ts); leaving with something
 * unsaved asks first. When someone else saved first (409), their version is loaded, what only this
 * user changed is re-applied and saved, and the fields both changed keep the other person's value,
 * with a banner naming them.
 */
export function useDescribedEditor<R extends { version: number }>(o: Options<R>) {
  const { t } = useTranslation();
  const { fields, initial } = o;
  const toDrafts = useCallback((r: R): Drafts => Object.fromEntries(fields.map((d) => [d.name, toDraft(d.type, (r as Record<string, unknown>)[d.name])])), [fields]);
  const fieldNames = useMemo(() => fields.map((d) => d.name), [fields]);
  const typeOf = useMemo(() => new Map(fields.map((d) => [d.name, d.type])), [fields]);
  const differing = useCallback((a: Record<string, unknown>, b: Record<string, unknown>) => fields.filter((d) => !sameWire(d.type, a[d.name], b[d.name])).map((d) => d.name), [fields]);

  const [record, setRecord] = useState<R>(initial);
  const [drafts, setDrafts] = useState<Drafts>(() => toDrafts(initial));
  const draftsNow = useRef(drafts);
  draftsNow.current = drafts;
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [saveError, setSaveError] = useState<unknown>(null);
  /** Fields both people changed, where the other's value was kept: what this user had typed, and theirs. */
  const [kept, setKept] = useState<Record<string, { yours: Draft; theirs: Draft }>>({});
  const version = useRef(initial.version);
  /** The record as last saved or loaded: what the form's changes are measured against. */
  const base = useRef(o.toWires(toDrafts(initial), initial));
  const refused = useRef<Refused>(new Map());
  /** What saves that got no answer carried: stored perhaps, so the same values in a 409's version are this user's own. */
  const unconfirmed = useRef<Record<string, unknown>>({});
  const resetRef = useRef<(v: Drafts) => void>(() => {});
  // The callbacks of the latest render (they may close over the record's lists).
  const opts = useRef(o);
  opts.current = o;

  const save = useCallback(
    async (f: Drafts) => {
      const { toWires, update, publish, conflictKept, fieldLabel } = opts.current;
      const now = toWires(f, record);
      const changed = differing(now, base.current);
      if (!changed.length) {
        setFieldErrors({});
        return;
      }
      const body: Record<string, unknown> = {};
      for (const k of changed) body[k] = now[k];
      let held: Record<string, string>;
      try {
        const around = await saveAround(refused.current, body, (b) => {
          const sent = { ...b, version: version.current };
          return update(sent, bodyChangeKey({ ...sent, record: opts.current.recordKey }));
        });
        held = around.held;
        const saved = around.saved;
        if (saved) {
          unconfirmed.current = {};
          version.current = saved.version;
          // A field typed meanwhile, or held back (refused), still differs from the saved record, so the next save looks at it again.
          base.current = toWires(toDrafts(saved), saved);
          setRecord(saved);
          publish(saved);
        }
        setFieldErrors(held);
        setSaveError(null);
      } catch (e) {
        if (e instanceof ApiError && e.status === 409 && e.problem.current) {
          const current = e.problem.current as R;
          const theirs = toWires(toDrafts(current), current);
          // What this user changed: the save's fields and whatever was typed while it was on its way.
          const latest = draftsNow.current;
          const typedNow = toWires(latest, record);
          const eq = (a: unknown, b: unknown, k: string) => sameWire(typeOf.get(k) ?? 'text', a, b);
          const { mine, lost, foreign } = splitOnConflict(fieldNames, base.current, typedNow, theirs, unconfirmed.current, eq);
          unconfirmed.current = {};
          version.current = current.version;
          base.current = theirs;
          setRecord(current);
          const next = toDrafts(current);
          for (const k of mine) next[k] = latest[k] ?? null;
          if (!mine.length) resetRef.current(next);
          setDrafts(next);
          setFieldErrors({});
          setSaveError(null);
          publish(current);
          // The other version is this user's own save whose answer was lost: nothing to tell.
          if (!foreign) return;
          const message = e.problem.title || t('errors.conflict');
          // Where their value was kept, what this user had typed is said too, to be copied back.
          const named = lost.map((k) => withYours(t, fieldLabel(k), typedNow[k]));
          // And beside each such field, with a way to put it back.
          setKept((was) => ({ ...was, ...Object.fromEntries(lost.map((k) => [k, { yours: latest[k] ?? null, theirs: next[k] ?? null }])) }));
          showBanner('warning', lost.length ? `${message} ${conflictKept(named)}` : message);
          return;
        }
        // No answer: the save may have been stored all the same; a 409 on the next one will say whose.
        if (e instanceof ApiError && e.status === 0) unconfirmed.current = { ...unconfirmed.current, ...body };
        if (e instanceof ApiError && e.status === 400) setFieldErrors({ ...refusedErrors(refused.current), ...e.fieldErrors });
        setSaveError(e);
        throw e;
      }
      if (Object.keys(held).length) throw new NotSaved(held);
    },
    [record, differing, toDrafts, t, fieldNames, typeOf],
  );

  const autosave = useAutosave({ value: drafts, save });
  resetRef.current = autosave.reset;
  useUnsavedGuard(autosave);
  const { onStatus } = o;
  useEffect(() => onStatus(autosave.status), [autosave.status, onStatus]);

  /**
   * Per field, while it still shows the other person's value that replaced this user's: what this
   * user had typed. Changing the field (or putting the value back) ends it.
   */
  const yoursReplaced = (name: string): Draft | undefined => {
    const k = kept[name];
    return k && sameDraft(drafts[name], k.theirs) && !sameDraft(k.yours, k.theirs) ? k.yours : undefined;
  };

  return { record, setRecord, drafts, setDrafts, fieldErrors, saveError, autosave, yoursReplaced };
}

const sameDraft = (a: Draft | undefined, b: Draft | undefined) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
