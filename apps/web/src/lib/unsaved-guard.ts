import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';
import { modals } from '@mantine/modals';
import { useTranslation } from 'react-i18next';
import type { AutosaveStatus } from './use-autosave.ts';

/**
 * Nothing typed into a record is lost by leaving it. Going anywhere else in the app (Done, a menu
 * link, Back) first saves what is pending; should a change still not be stored (the server refused
 * a field, or the connection failed), the user is asked before it is given up: keep editing (the
 * default), or leave without it. Closing or reloading the tab asks the browser's own question.
 */
export function useUnsavedGuard(autosave: { status: AutosaveStatus; flush: () => Promise<boolean> }) {
  const { t } = useTranslation();
  const status = useRef(autosave.status);
  status.current = autosave.status;
  const flush = useRef(autosave.flush);
  flush.current = autosave.flush;

  const blocker = useBlocker(({ currentLocation, nextLocation }) => status.current !== 'idle' && status.current !== 'saved' && currentLocation.pathname + currentLocation.search !== nextLocation.pathname + nextLocation.search);

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    let live = true;
    void flush.current().then((stored) => {
      if (!live || blocker.state !== 'blocked') return;
      if (stored) return blocker.proceed();
      let decided = false;
      modals.openConfirmModal({
        title: t('common.unsaved.title'),
        children: t('common.unsaved.text'),
        labels: { confirm: t('common.unsaved.keep'), cancel: t('common.unsaved.leave') },
        confirmProps: { 'data-testid': 'unsaved-keep', 'data-autofocus': true } as Record<string, unknown>,
        cancelProps: { 'data-testid': 'unsaved-leave' } as Record<string, unknown>,
        closeOnCancel: true,
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
    };
  }, [blocker, t]);

  useEffect(() => {
    if (autosave.status !== 'error' && autosave.status !== 'pending' && autosave.status !== 'saving') return;
    const ask = (e: BeforeUnloadEvent) => {
      // Pending changes are still sent on the way out (useAutosave); a refused one would be lost.
      if (status.current === 'error') e.preventDefault();
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [autosave.status]);
}
