import { Alert } from '@mantine/core';
import { IconLock } from '../../components/icons.ts';
import { useTranslation } from '../../lib/use-translation.tsx';

export function AccessDenied() {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" icon={<IconLock />} data-testid="access-denied">
      {t('errors.accessDenied')}
    </Alert>
  );
}
