import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from '../lib/use-translation.tsx';
import { ApiError } from '../lib/api.ts';
import { showBanner } from '../lib/banner.ts';
import { bodyChangeKey } from '../lib/change-key.ts';
import { sameForm, splitOnConflict, withYours } from '../lib/conflict-merge.ts';
import { NotSaved, refusedErrors, saveAround, type Refused } from '../lib/refused-fields.ts';
import { useAutosave, type AutosaveStatus } from '../lib/use-autosave.ts';
import { useUnsavedGuard } from '../lib/unsaved-guard.tsx';

type Wires = Record<string, unknown>;

/** A record's in-place editor (its view modes 1 and 2): what it opens with, whether expanded (mode 2), and where its saving state goes. */
export type InPlaceEditorProps<E> = { initial: E; expanded: boolean; onStatus: (s: AutosaveStatus) => void };

export type RecordAutosaveOptions<R extends { version: number }, F> = {
  initial: R;
  /** The record as the form holds it, and the form as the API takes it (`fieldNames`' values). */
  toForm: (record: R) => F;
  toWires: (form: F, record: R) => Wires;
  /** The fields saved, by their API names; `same` compares two values of one (default: equal JSON). */
  fieldNames: readonly string[];
  same?: (a: unknown, b: unknown, name: string) => boolean;
  /** The form's own name for an API field, where it differs (an account's `email` is its `emails` list). */
  formKey?: (name: string) => string;
  /** Changes refused before they are sent (a mistyped ΑΦΜ): removed from the body, their messages answered. */
  hold?: (changes: Wires) => Record<string, string>;
  /** Sends the changed fields with the version they are based on, and the change's Idempotency-Key. */
  update: (body: Wires & { version: number }, changeKey: string) => Promise<R>;
  /** Names the record in the change's key ("object-12"): the same fields and version of another record are another change. */
  recordKey: string;
  /** A saved (or reloaded) record, for the other screens' caches (`client`). */
  publish: (record: R, client: QueryClient) => void;
  /** The banner's addition when the other person changed some of this user's fields too. */
  conflictKept: (labels: string[]) => string;
  fieldLabel: (name: string) => string;
  onStatus: (s: AutosaveStatus) => void;
};

/**
 * The record kit's auto-save (decision 057), for the records edited in place (accounts, properties,
 * leads). Every change is saved about 400 ms later with the version it is based on; a field the
 * server refused is held back and the rest saved (lib/refused-fields.ts); leaving with something
 * unsaved asks first. When someone else saved first (409), their version is loaded, what only this
 * user changed is re-applied and saved, and the fields both changed keep the other person's value,
 * with a banner naming them and, beside each, what this user had typed with a way to put it back.
 */
export function useRecordAutosave<R extends { version: number }, F extends object>(o: RecordAutosaveOptions<R, F>) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { initial, fieldNames } = o;
  const [record, setRecord] = useState<R>(initial);
  const [form, setForm] = useState<F>(() => o.toForm(initial));
  const formNow = useRef(form);
  formNow.current = form;
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [saveError, setSaveError] = useState<unknown>(null);
  /** Fields both people changed, where the other's value was kept: what this user had typed, and theirs (by the form's names). */
  const [kept, setKept] = useState<Record<string, { yours: unknown; theirs: unknown }>>({});
  const version = useRef(initial.version);
  /** The record as last saved or loaded: what the form's changes are measured against. */
  const base = useRef(o.toWires(o.toForm(initial), initial));
  const refused = useRef<Refused>(new Map());
  /** What saves that got no answer carried: stored perhaps, so the same values in a 409's version are this user's own. */
  const unconfirmed = useRef<Wires>({});
  const resetRef = useRef<(v: F) => void>(() => {});
  // The callbacks of the latest render (they may close over the record's lists).
  const opts = useRef(o);
  opts.current = o;

  const save = useCallback(
    async (f: F) => {
      const { toForm, toWires, update, publish, conflictKept, fieldLabel, hold, same = sameForm, formKey = (k: string) => k } = opts.current;
      const now = toWires(f, record);
      const body: Wires = {};
      for (const k of fieldNames) if (!same(now[k], base.current[k], k)) body[k] = now[k];
      const local = hold?.(body) ?? {};
      if (!Object.keys(body).length) {
        setFieldErrors(local);
        return;
      }
      let held: Record<string, string>;
      try {
        const around = await saveAround(refused.current, body, (b) => {
          const sent = { ...b, version: version.current };
          return update(sent, bodyChangeKey({ ...sent, record: opts.current.recordKey }));
        });
        held = { ...local, ...around.held };
        const saved = around.saved;
        if (saved) {
          unconfirmed.current = {};
          version.current = saved.version;
          // A field typed meanwhile, or held back (refused), still differs from the saved record, so the next save looks at it again.
          base.current = toWires(toForm(saved), saved);
          setRecord(saved);
          publish(saved, client);
        }
        setFieldErrors(held);
        setSaveError(null);
      } catch (e) {
        if (e instanceof ApiError && e.status === 409 && e.problem.current) {
          const current = e.problem.current as R;
          const theirs = toWires(toForm(current), current);
          // What this user changed: the save's fields and whatever was typed while it was on its way.
          const latest = formNow.current as Record<string, unknown>;
          const typedNow = toWires(formNow.current, record);
          const { mine, lost, foreign } = splitOnConflict(fieldNames, base.current, typedNow, theirs, unconfirmed.current, same);
          unconfirmed.current = {};
          version.current = current.version;
          base.current = theirs;
          setRecord(current);
          const next = toForm(current) as Record<string, unknown>;
          for (const k of mine) next[formKey(k)] = latest[formKey(k)] ?? null;
          if (!mine.length) resetRef.current(next as F);
          setForm(next as F);
          setFieldErrors({});
          setSaveError(null);
          publish(current, client);
          // The other version is this user's own save whose answer was lost: nothing to tell.
          if (!foreign) return;
          const message = e.problem.title || t('errors.conflict');
          // Where their value was kept, what this user had typed is said too, to be copied back.
          const named = lost.map((k) => withYours(t, fieldLabel(k), typedNow[k]));
          // And beside each such field, with a way to put it back.
          setKept((was) => ({ ...was, ...Object.fromEntries(lost.map((k) => [formKey(k), { yours: latest[formKey(k)] ?? null, theirs: next[formKey(k)] ?? null }])) }));
          showBanner('warning', lost.length ? `${message} ${conflictKept(named)}` : message);
          return;
        }
        // No answer: the save may have been stored all the same; a 409 on the next one will say whose.
        if (e instanceof ApiError && e.status === 0) unconfirmed.current = { ...unconfirmed.current, ...body };
        if (e instanceof ApiError && e.status === 400) setFieldErrors({ ...local, ...refusedErrors(refused.current), ...e.fieldErrors });
        setSaveError(e);
        throw e;
      }
      if (Object.keys(held).length) throw new NotSaved(held);
    },
    [record, fieldNames, t, client],
  );

  const autosave = useAutosave({ value: form, save });
  resetRef.current = autosave.reset;
  useUnsavedGuard(autosave);
  const { onStatus } = o;
  useEffect(() => onStatus(autosave.status), [autosave.status, onStatus]);

  /**
   * Per field (the form's name), while it still shows the other person's value that replaced this
   * user's: what this user had typed. Changing the field (or putting the value back) ends it.
   */
  const yoursReplaced = (name: string): unknown => {
    const k = kept[name];
    const now = (form as Record<string, unknown>)[name];
    return k && sameForm(now ?? null, k.theirs) && !sameForm(k.yours, k.theirs) ? k.yours : undefined;
  };

  return { record, setRecord, form, setForm, fieldErrors, saveError, autosave, yoursReplaced };
}
