import { Select } from '@mantine/core';
import { useTranslation } from '../lib/use-translation.tsx';
import { searchAccountHits } from '../lib/pickers.ts';
import { usePickSearch, type Picked } from './search-picker.tsx';

/**
 * Picks an account by typing part of its name (GET /api/account/search, debounced 400 ms).
 * filter 1 = employees only, 2 = employees and specialists.
 */
export function AccountPicker({
  label,
  value,
  onChange,
  filter,
  testId,
  required,
  autoFocus,
  error,
}: {
  label: string;
  value: Picked;
  onChange: (v: Picked) => void;
  filter: 0 | 1 | 2;
  testId?: string;
  /** Marked required (the asterisk); the form says when it is missing. */
  required?: boolean;
  /** Takes the focus when its dialog opens (Mantine's data-autofocus). */
  autoFocus?: boolean;
  error?: string;
}) {
  const { t } = useTranslation();
  const pick = usePickSearch({
    value,
    onChange,
    queryKey: ['accountSearch', filter],
    search: async (text, signal) => (await searchAccountHits(text, filter, signal)).items.map((h) => ({ id: h.id, text: h.description })),
  });
  return (
    <Select
      label={label}
      {...pick.props}
      nothingFoundMessage={pick.nothingFound ? t('nav.searchNoResults') : undefined}
      placeholder={t('accounts.ui.picker.placeholder')}
      data-testid={testId}
      withAsterisk={required}
      error={error}
      {...(autoFocus ? { 'data-autofocus': true } : {})}
    />
  );
}
