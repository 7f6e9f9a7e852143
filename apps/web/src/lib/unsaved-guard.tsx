import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';
import { modals } from '@mantine/modals';
import { useTranslation } from 'react-i18next';
import type { AutosaveStatus } from './use-autosave.ts';

/**
 * Nothing typed into a record is lost by leaving it. Going anywhere else in the app (Done, a menu
 * link, Back) first saves what every open editor has pending; should a change still not be stored
 * (the server refused a field, or the connection failed), the user is asked before it is given
 * up: keep editing (the default), or leave without it. Closing or reloading the tab asks the
 * browser's own question while a refusal stands.
 *
 * React Router allows one blocker at a time, and a screen can hold two editors (a lead with its
 * client's account), so editors register here and one guard, in the shell, watches them all.
 */
type Editor = { status: () => AutosaveStatus; flush: () => Promise<boolean> };
const editors = new Set<Editor>();
const unsettled = (s: AutosaveStatus) => s !== 'idle' && s !== 'saved';

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

/** The shell's one guard over the registered editors (rendered once, inside the router). */
export function UnsavedChangesGuard() {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      currentLocation.pathname + currentLocation.search !== nextLocation.pathname + nextLocation.search && [...editors].some((e) => unsettled(e.status())),
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
    void Promise.all([...editors].map((e) => e.flush())).then((stored) => {
      if (!live || blocker.state !== 'blocked') return;
      if (stored.every(Boolean)) return blocker.proceed();
      let decided = false;
      modals.openConfirmModal({
        title: t('common.unsaved.title'),
        children: t('common.unsaved.text'),
        labels: { confirm: t('common.unsaved.keep'), cancel: t('common.unsaved.leave') },
        confirmProps: { 'data-testid': 'unsaved-keep', 'data-autofocus': true } as Record<string, unknown>,
        cancelProps: { 'data-testid': 'unsaved-leave' } as Record<string, unknown>,
        onConfirm: () => {
          decided = true;
          blocker.reset();
        },
        onCancel: () => {
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
    // Pending changes are still sent on the way out (useAutosave); a refused one would be lost.
    const ask = (e: BeforeUnloadEvent) => {
      if ([...editors].some((ed) => ed.status() === 'error')) e.preventDefault();
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, []);
  return null;
}
