import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from '../../lib/use-translation.tsx';
import type { TActivity, TActivityAdd } from '@crm/contract';
import { ApiError } from '../../lib/api.ts';
import { showBanner } from '../../lib/banner.ts';
import { bodyChangeKey, useChangeKeys } from '../../lib/change-key.ts';
import { describeError, reportError } from '../../lib/errors.ts';
import { useAutosave } from '../../lib/use-autosave.ts';
import { mergeOnConflict, withYours } from '../../lib/conflict-merge.ts';
import { activityKeys, addActivity, fetchActivity, updateActivity } from './api.ts';
import type { TActivityLinkView } from './shared.tsx';

export type Form = {
  description: string;
  done: boolean | null;
  category: number;
  date: string | null;
  doneDate: string | null;
  assignedTo: { id: number; description: string } | null;
  links: TActivityLinkView[];
};

const formOf = (a: TActivity): Form => ({
  description: a.description ?? '',
  done: a.done,
  category: a.category,
  date: a.date,
  doneDate: a.doneDate,
  assignedTo: a.assignedTo,
  links: a.links,
});

/** The activity's fields as the API takes them. */
const wireOf = (f: Form) => ({
  description: f.description.trim() ? f.description : null,
  done: f.done,
  category: f.category,
  date: f.date,
  doneDate: f.doneDate,
  assignedTo: f.assignedTo ? f.assignedTo.id : null,
  links: f.links.map((l) => ({ entity: l.entity, id: l.id })),
});

export const isBlank = (f: Form) => !f.description.trim() && f.done === null && f.category === 0 && !f.date && !f.doneDate && !f.assignedTo && f.links.length <= 1;

/**
 * The activity's form and its saving: every change is saved about 400 ms later (one save at a time,
 * the version kept in a ref). A 409 tells the user and loads the current activity. A new activity
 * (unsavedActivity) is stored at its first save with something in it (`onCreated` tells its id).
 */
export function useActivitySave(activity: TActivity, onCreated?: (a: TActivity) => void) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  // 0 until a new activity is stored; the saves read the ref, the screen the state.
  const [id, setId] = useState(activity.id);
  const idRef = useRef(activity.id);
  /** The links as stored, with their records' names (a new activity's own record is named once it is stored). */
  const [storedLinks, setStoredLinks] = useState(activity.links);
  const [form, setForm] = useState<Form>(() => formOf(activity));
  // The form as it is now (typing goes on while a save is on its way): what a 409 merges.
  const formNow = useRef(form);
  formNow.current = form;
  const version = useRef(activity.version);
  /** The last state the server confirmed, to undo a refused link change. */
  const saved = useRef<Form>(formOf(activity));
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  // The save that puts a refused link back must not wipe the message explaining the refusal.
  const keepErrorOnce = useRef(false);

  /** What the last save that got no answer carried (stored perhaps): a 409 of exactly that is this user's own. */
  const unconfirmed = useRef<ReturnType<typeof wireOf> | null>(null);

  // Storing a new activity: one add at a time (a save and a dropped file wait for the same one); an
  // add whose answer was lost is sent again as it was, with its key, so it is never stored twice.
  const changeKeys = useChangeKeys();
  const adding = useRef<Promise<TActivity> | null>(null);
  const addSent = useRef<{ body: TActivityAdd; key: string } | null>(null);
  const add = (f: Form): Promise<TActivity> =>
    (adding.current ??= (async () => {
      try {
        const own = activity.links[0]!;
        if (!addSent.current) {
          const body: TActivityAdd = { entityType: own.entity, id: own.id, ...wireOf(f) };
          addSent.current = { body, key: changeKeys.keyFor(body) };
        }
        let res: TActivity;
        try {
          res = await addActivity(addSent.current.body, addSent.current.key);
        } catch (e) {
          // Refused (not stored): the next try is another add. No answer: the same one again.
          if (!(e instanceof ApiError && e.status === 0)) addSent.current = null;
          throw e;
        }
        addSent.current = null;
        idRef.current = res.id;
        version.current = res.version;
        saved.current = formOf(res);
        setId(res.id);
        setStoredLinks(res.links);
        onCreated?.(res);
        return res;
      } finally {
        adding.current = null;
      }
    })());

  /** A save the server took: the messages go (unless one is kept), its completion date is shown. */
  const confirmed = (f: Form, res: TActivity) => {
    if (keepErrorOnce.current) keepErrorOnce.current = false;
    else {
      setError(null);
      setFieldErrors({});
    }
    // The server stamps the completion date when an action is marked complete without one.
    setForm((cur) => (cur.doneDate === f.doneDate && res.doneDate !== f.doneDate ? { ...cur, doneDate: res.doneDate } : cur));
    void qc.invalidateQueries({ queryKey: activityKeys.all });
  };
  const showInvalid = (e: ApiError) => {
    setFieldErrors(e.fieldErrors);
    setError(describeError(e).message);
  };

  const save = useCallback(
    async (f: Form): Promise<void> => {
      if (!idRef.current) {
        // Nothing entered in a new activity: nothing is stored.
        if (isBlank(f)) return;
        try {
          const res = await add(f);
          confirmed(f, res);
          // Stored as typed: done. Otherwise (an add sent again as it first was) the rest is saved on it below.
          if (JSON.stringify(wireOf(formOf(res))) === JSON.stringify(wireOf(f))) return;
        } catch (e) {
          if (e instanceof ApiError && e.status === 400) showInvalid(e);
          else if (!(e instanceof ApiError && e.status === 0)) reportError(e);
          throw e;
        }
      }
      const body = { id: idRef.current, version: version.current, ...wireOf(f) };
      try {
        const res = await updateActivity(body, bodyChangeKey(body));
        unconfirmed.current = null;
        version.current = res.version;
        saved.current = formOf(res);
        confirmed(f, res);
      } catch (e) {
        const own = unconfirmed.current;
        unconfirmed.current = e instanceof ApiError && e.status === 0 ? { ...wireOf(f) } : null;
        if (e instanceof ApiError && e.status === 409 && own && e.problem.current && JSON.stringify(wireOf(formOf(e.problem.current as TActivity))) === JSON.stringify(own)) {
          // The newer version is this user's own save whose answer was lost: save what is typed now on it.
          version.current = (e.problem.current as TActivity).version;
          saved.current = formOf(e.problem.current as TActivity);
          return save(f);
        }
        if (e instanceof ApiError && e.status === 409) {
          // Someone else saved it first: their version is loaded, and what only this user changed
          // (typed meanwhile too) is put on it and saved; where both changed a field, theirs stays
          // and the banner says what this user had typed there.
          const current = (e.problem.current as TActivity | undefined) ?? (await fetchActivity(idRef.current));
          const theirs = formOf(current);
          const typed = formNow.current;
          const m = mergeOnConflict(saved.current, typed, theirs);
          version.current = current.version;
          saved.current = theirs;
          // The merged form is shown and is what the editor now holds (not a change of its own).
          autosave.reset(m.next);
          setForm(m.next);
          const label = (k: string) => t(`activities.field.${k}`);
          const named = m.lost.map((k) => withYours(t, label(k), typed[k as keyof Form]));
          const head = m.changed.length > m.lost.length ? t('common.conflictMerged') : e.problem.title || t('errors.conflict');
          showBanner('warning', head + (named.length ? ` ${t('common.conflictKept', { fields: named.join(', ') })}` : ''));
          // Mine on their version, saved now; with nothing of mine left, their version is all there is.
          if (m.changed.length > m.lost.length) return save(m.next);
          return;
        } else if (e instanceof ApiError && e.status === 400) {
          if (e.problem.code === 'activities.onlyLink') {
            // Put the refused link back (that change saves too; the message stays).
            keepErrorOnce.current = true;
            setForm((cur) => ({ ...cur, links: saved.current.links }));
          }
          showInvalid(e);
        } else {
          reportError(e);
        }
        throw e;
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [qc],
  );
  const autosave = useAutosave({ value: form, save });
  return { id, idRef, storedLinks, form, setForm, formNow, error, setError, fieldErrors, autosave, add, adding };
}
