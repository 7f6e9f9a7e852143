import { Button, type ButtonProps } from '@mantine/core';
import { useTranslation } from '../lib/use-translation.tsx';
import { IconFilterOff } from './icons.ts';

/** "Clear filters": in a list's filter card (subtle) and in its "nothing matches" state (light). */
export function ClearFiltersButton({ onClear, ...props }: ButtonProps & { onClear: () => void; 'data-testid'?: string }) {
  const { t } = useTranslation();
  return (
    <Button variant="subtle" leftSection={<IconFilterOff size={16} />} onClick={onClear} {...props}>
      {t('accounts.ui.filter.clear')}
    </Button>
  );
}
