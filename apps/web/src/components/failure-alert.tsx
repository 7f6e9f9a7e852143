import { Alert } from '@mantine/core';
import { describeError } from '../lib/errors.ts';

/**
 * What failed, in a red box: a refused or lost call in the user's words (the error catalogue of
 * lib/errors), or a text a screen already wrote. Nothing is shown while there is no failure, so a
 * screen puts it where the failure belongs and passes what it holds (`mutation.error`, a state).
 */
export function FailureAlert({ failure, testId, role, preLine, className }: { failure: unknown; testId?: string; role?: 'alert'; preLine?: boolean; className?: string }) {
  if (failure == null || failure === false || failure === '') return null;
  const classes = [preLine ? 'pre-line' : undefined, className].filter(Boolean).join(' ') || undefined;
  return (
    <Alert color="red" role={role} className={classes} data-testid={testId}>
      {typeof failure === 'string' ? failure : describeError(failure).message}
    </Alert>
  );
}
