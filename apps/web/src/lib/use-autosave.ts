import { useCallback, useEffect, useRef, useState } from 'react';
import { AUTOSAVE_MS } from '@crm/contract/constants';
import { ApiError } from './api.ts';

/** After a save got no answer, it is sent again by itself: first after 2 s, then less often. */
const RETRY_MS = [2000, 5000, 10000, 30000];

export type AutosaveStatus = 'idle' | 'pending' | 'saving' | 'saved' | 'error';

/**
 * Saves `value` about 400 ms after the last change (the first value, as loaded, is not saved).
 * One save at a time: changes made while a save is in flight are saved right after it, with the
 * newest value, so nothing typed is lost and saves never overtake each other. Pending changes are
 * flushed when the screen closes or the page is hidden. A save that got no answer (the connection
 * dropped) is sent again by itself, a little later each time and at once when the browser is back
 * online; sent again, it is the same change (the caller's Idempotency-Key), so it is not made twice.
 * The caller's `save` keeps the record's version up to date from each answer.
 */
export function useAutosave<T>({ value, save, enabled = true, delay = AUTOSAVE_MS }: { value: T; save: (value: T) => Promise<unknown>; enabled?: boolean; delay?: number }) {
  const [status, setStatus] = useState<AutosaveStatus>('idle');
  const first = useRef(true);
  const latest = useRef(value);
  const dirty = useRef(false);
  /** The last save was refused (or failed): what it carried is not stored. */
  const failed = useRef(false);
  const inFlight = useRef<Promise<void> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const retries = useRef(0);
  /** A save that got no answer waits to be sent again (its timer is `timer`). */
  const retryDue = useRef(false);
  const saveRef = useRef(save);
  saveRef.current = save;

  const run = useCallback(async (): Promise<void> => {
    if (inFlight.current) {
      await inFlight.current;
      if (dirty.current) return run();
      return;
    }
    if (!dirty.current) return;
    dirty.current = false;
    setStatus('saving');
    const p = (async () => {
      try {
        await saveRef.current(latest.current);
        failed.current = false;
        retries.current = 0;
        setStatus(dirty.current ? 'pending' : 'saved');
      } catch (e) {
        failed.current = true;
        setStatus('error');
        if (e instanceof ApiError && e.status === 0 && !dirty.current && !timer.current) {
          const wait = RETRY_MS[Math.min(retries.current, RETRY_MS.length - 1)];
          retries.current += 1;
          retryDue.current = true;
          timer.current = setTimeout(() => {
            timer.current = null;
            retryDue.current = false;
            dirty.current = true;
            void run();
          }, wait);
        }
      }
    })();
    inFlight.current = p;
    await p;
    inFlight.current = null;
    if (dirty.current) await run();
  }, []);

  /** Saves what is pending now; true when everything typed is stored. */
  const flush = useCallback(async (): Promise<boolean> => {
    if (timer.current) {
      clearTimeout(timer.current);
      timer.current = null;
    }
    if (retryDue.current) {
      retryDue.current = false;
      dirty.current = true;
    }
    await run();
    return !failed.current && !dirty.current;
  }, [run]);

  useEffect(() => {
    latest.current = value;
    if (first.current) {
      first.current = false;
      return;
    }
    if (!enabled) return;
    dirty.current = true;
    retryDue.current = false;
    setStatus('pending');
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      void run();
    }, delay);
  }, [value, enabled, delay, run]);

  /** Forget pending changes (e.g. after reloading the record from the server). */
  const reset = useCallback((next: T) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    dirty.current = false;
    retryDue.current = false;
    failed.current = false;
    first.current = true;
    latest.current = next;
    setStatus('idle');
  }, []);

  useEffect(() => {
    const onHide = () => {
      if (dirty.current || retryDue.current) void flush();
    };
    window.addEventListener('pagehide', onHide);
    window.addEventListener('online', onHide);
    document.addEventListener('visibilitychange', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      window.removeEventListener('online', onHide);
      document.removeEventListener('visibilitychange', onHide);
      if (dirty.current || retryDue.current) void flush();
    };
  }, [flush]);

  return { status, flush, reset };
}
