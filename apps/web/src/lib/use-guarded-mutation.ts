import { useMutation, type DefaultError, type UseMutationOptions, type UseMutationResult } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';

/**
 * A mutation started by a button, run once per click however fast the clicks come. A double click
 * fires twice before the button re-renders as busy (the query library tells its observers on the
 * next tick, so `isPending` is still false for the second click): a second record, a second mail,
 * or a save with a spent version. Calls made while one is on its way are dropped.
 */
export function useGuardedMutation<TData = unknown, TError = DefaultError, TVariables = void, TContext = unknown>(
  options: UseMutationOptions<TData, TError, TVariables, TContext>,
): UseMutationResult<TData, TError, TVariables, TContext> {
  const m = useMutation(options);
  const busy = useRef(false);
  const { mutateAsync: run } = m;
  const mutateAsync = useCallback(
    async (...args: Parameters<typeof run>) => {
      if (busy.current) throw new Error('Already on its way');
      busy.current = true;
      try {
        return await run(...args);
      } finally {
        busy.current = false;
      }
    },
    [run],
  ) as typeof run;
  const mutate = useCallback(
    (...args: Parameters<typeof run>) => {
      if (busy.current) return;
      mutateAsync(...args).catch(() => undefined);
    },
    [mutateAsync],
  ) as typeof m.mutate;
  return { ...m, mutate, mutateAsync } as UseMutationResult<TData, TError, TVariables, TContext>;
}
