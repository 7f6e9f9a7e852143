import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';

/**
 * The foot of a form: Cancel, then the submit button (Save unless `label` says otherwise), at the
 * right. `cancelDisabled` keeps Cancel from closing while a save is under way.
 */
export function FormButtons({
  onCancel,
  label,
  loading,
  disabled,
  cancelDisabled,
  testId,
  cancelTestId,
  gap,
}: {
  onCancel: () => void;
  label?: ReactNode;
  loading: boolean;
  disabled?: boolean;
  cancelDisabled?: boolean;
  testId?: string;
  cancelTestId?: string;
  gap?: 'xs' | 'sm';
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" gap={gap}>
      <Button variant="default" onClick={onCancel} disabled={cancelDisabled} data-testid={cancelTestId}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" loading={loading} disabled={disabled} data-testid={testId}>
        {label ?? t('common.save')}
      </Button>
    </Group>
  );
}
