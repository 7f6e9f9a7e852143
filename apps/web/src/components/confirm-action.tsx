import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';

type T = (key: string) => string;

/**
 * Asks before an action that cannot be taken back (a delete, a revoke, an issue): the spec's
 * question (`text`; a string becomes a line of text), the action's own word on the confirm button
 * (default Delete; red unless `color` says otherwise, '' for the plain button) and Cancel (or
 * `cancel`, where Cancel would read as the action itself). `testId` marks the confirm button,
 * `cancelTestId` the cancel one.
 */
export function confirmAction(
  t: T,
  o: { title: ReactNode; text?: ReactNode; confirm?: string; cancel?: string; color?: string; testId?: string; cancelTestId?: string; onConfirm: () => unknown; onClose?: () => void },
) {
  // Once: the dialog stays on screen, and clickable, while it fades out, and a double click sent a delete (or a mail) twice.
  let confirmed = false;
  modals.openConfirmModal({
    title: o.title,
    children: typeof o.text === 'string' ? <Text size="sm">{o.text}</Text> : o.text,
    labels: { confirm: o.confirm ?? t('common.delete'), cancel: o.cancel ?? t('common.cancel') },
    confirmProps: { color: o.color === undefined ? 'red' : o.color || undefined, ...(o.testId ? { 'data-testid': o.testId } : {}) } as Record<string, unknown>,
    ...(o.cancelTestId ? { cancelProps: { 'data-testid': o.cancelTestId } as Record<string, unknown> } : {}),
    onConfirm: () => {
      if (confirmed) return;
      confirmed = true;
      void o.onConfirm();
    },
    ...(o.onClose ? { onClose: o.onClose } : {}),
  });
}
