import { Group, Loader, Text } from '@mantine/core';
import { useTranslation } from '../lib/use-translation.tsx';
import type { AutosaveStatus } from '../lib/use-autosave.ts';
import { useAnyInvalidEntry } from './fields/invalid-entry.ts';
import { IconCloudCheck, IconExclamationCircle } from './icons.ts';

/**
 * A record's auto-save indicator in its toolbar: saving…, all changes saved, or not saved. While a
 * box on the screen keeps text that is no value (a price, a date or a time typed wrong), that text
 * was not stored, so the indicator says so instead of "All changes saved".
 */
export function SaveStatus({ status }: { status: AutosaveStatus }) {
  const { t } = useTranslation();
  const unreadable = useAnyInvalidEntry();
  if (status === 'idle' && !unreadable) return null;
  const busy = status === 'pending' || status === 'saving';
  const failed = status === 'error' || unreadable;
  const shown = unreadable && !busy ? 'unreadable' : status;
  return (
    <Group gap={4} data-testid="save-status" data-status={shown} aria-live="polite">
      {busy ? <Loader size={14} /> : failed ? <IconExclamationCircle size={18} color="var(--mantine-color-red-7)" /> : <IconCloudCheck size={18} color="var(--mantine-color-green-7)" />}
      <Text size="sm" c={failed && !busy ? 'red' : 'dimmed'}>
        {busy ? t('accounts.ui.edit.saving') : unreadable ? t('common.notSavedUnreadable') : status === 'saved' ? t('accounts.ui.edit.saved') : t('accounts.ui.edit.notSaved')}
      </Text>
    </Group>
  );
}
