import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';
import { modals } from '@mantine/modals';
import { useTranslation } from './use-translation.tsx';
import type { AutosaveStatus } from './use-autosave.ts';
import { INVALID_ENTRY } from '../components/fields/invalid-entry.ts';

/**
 * Nothing typed into a record is lost by leaving it. Going anywhere else in the app (Done, a menu
 * link, Back) first saves what every open editor has pending; should a change still not be stored
 * (the server refused a field, or the connection failed), the user is asked before it is given
 * up: keep editing (the default), or leave without it. Closing or reloading the tab asks the
 * browser's own question while a change is not yet stored.
 *
 * React Router allows one blocker at a time, and a screen can hold two editors (a lead with its
 * client's account), so editors register here and one guard, in the shell, watches them all.
 */
type Editor = {
  status: () => AutosaveStatus;
  flush: () => Promise<boolean>;
  /** Saved by its own Save button (nothing was refused: the changes are simply not saved yet), or auto-saved. */
  saveButton?: boolean;
};
const editors = new Set<Editor>();
const unsettled = (s: AutosaveStatus) => s !== 'idle' && s !== 'saved';
/**
 * A box on the screen holds text that is not a value it can take (a number, a date, a time typed
 * wrong): it keeps the text with its error and the record keeps the value before it, so leaving
 * would drop what was meant.
 */
const typedButUnreadable = () => document.querySelector(`[${INVALID_ENTRY}="true"]`) != null;

/** An editor's auto-save, watched by the shell's guard while the editor is on the screen. */
export function useUnsavedGuard(autosave: { status: AutosaveStatus; flush: () => Promise<boolean> }) {
  const latest = useRef(autosave);
  latest.current = autosave;
  useEffect(() => {
    const editor: Editor = { status: () => latest.current.status, flush: () => latest.current.flush() };
    editors.add(editor);
    return () => {
      editors.delete(editor);
    };
  }, []);
}

/**
 * A form saved by its Save button (a viewing, a deal, a booking): while what is in it differs from
 * what was loaded, leaving it (Back, a link, a reload, closing the tab) asks first, as an auto-saved
 * editor with a refused change does. `release()` before the form's own navigation after it saved or
 * deleted the record.
 */
export function useFormLeaveGuard(dirty: boolean): { release: () => void } {
  const state = useRef({ dirty, released: false });
  state.current.dirty = dirty;
  useEffect(() => {
    const editor: Editor = {
      status: () => (state.current.dirty && !state.current.released ? 'pending' : 'idle'),
      flush: () => Promise.resolve(!state.current.dirty || state.current.released),
      saveButton: true,
    };
    editors.add(editor);
    return () => {
      editors.delete(editor);
    };
  }, []);
  return useRef({ release: () => void (state.current.released = true) }).current;
}

/** The shell's one guard over the registered editors (rendered once, inside the router). */
export function UnsavedChangesGuard() {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      currentLocation.pathname + currentLocation.search !== nextLocation.pathname + nextLocation.search && ([...editors].some((e) => unsettled(e.status())) || typedButUnreadable()),
  );

  // One question per blocked navigation, however often the shell renders meanwhile.
  const handling = useRef(false);
  useEffect(() => {
    if (blocker.state !== 'blocked') {
      handling.current = false;
      return;
    }
    if (handling.current) return;
    handling.current = true;
    let live = true;
    const open = [...editors];
    void Promise.all(open.map((e) => e.flush())).then((stored) => {
      if (!live || blocker.state !== 'blocked') return;
      const unreadable = typedButUnreadable();
      if (stored.every(Boolean) && !unreadable) return blocker.proceed();
      // A Save-button form's changes were not refused, only not saved yet: the question says so,
      // rather than pointing at fields in red that are not there. A box that cannot be read, or an
      // auto-saved editor's refused change, keeps the question about the fields in red.
      const onlyNotSavedYet = !unreadable && open.every((e, i) => stored[i] || e.saveButton);
      let decided = false;
      modals.openConfirmModal({
        title: t('common.unsaved.title'),
        children: t(onlyNotSavedYet ? 'common.unsaved.formText' : 'common.unsaved.text'),
        labels: { confirm: t('common.unsaved.keep'), cancel: t('common.unsaved.leave') },
        confirmProps: { 'data-testid': 'unsaved-keep', 'data-autofocus': true } as Record<string, unknown>,
        cancelProps: { 'data-testid': 'unsaved-leave' } as Record<string, unknown>,
        // Each acts once: the dialog stays clickable while it fades out.
        onConfirm: () => {
          if (decided) return;
          decided = true;
          blocker.reset();
        },
        onCancel: () => {
          if (decided) return;
          decided = true;
          blocker.proceed();
        },
        onClose: () => {
          if (!decided) blocker.reset();
          decided = true;
        },
      });
    });
    return () => {
      live = false;
      handling.current = false;
    };
  }, [blocker, t]);

  useEffect(() => {
    // Pending changes are sent on the way out (useAutosave's flush, with keepalive). The browser is
    // asked to hold the page while any is unsettled: a save still waiting for the one before it, or
    // one whose request had not started, was lost on a reload 50-250 ms after the last key; a
    // refused one, or a Save-button form's changes, would be lost anyway.
    const ask = (e: BeforeUnloadEvent) => {
      const open = [...editors].filter((ed) => unsettled(ed.status()));
      if (!open.length && !typedButUnreadable()) return;
      for (const ed of open) void ed.flush();
      e.preventDefault();
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, []);
  return null;
}
