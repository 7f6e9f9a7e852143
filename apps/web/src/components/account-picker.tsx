import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import { searchAccountHits } from '../lib/pickers.ts';

type Picked = { id: number; text: string } | null;

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
  const [search, setSearch] = useState(value?.text ?? '');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const typing = debounced.length > 0 && debounced !== value?.text;
  const q = useQuery({
    queryKey: ['accountSearch', filter, debounced],
    queryFn: ({ signal }) => searchAccountHits(debounced, filter, signal),
    enabled: typing,
    staleTime: 5000,
  });
  const found = typing ? (q.data?.items ?? []) : [];
  const data = [...(value ? [{ value: String(value.id), label: value.text }] : []), ...found.filter((h) => h.id !== value?.id).map((h) => ({ value: String(h.id), label: h.description }))];
  return (
    <Select
      label={label}
      searchable
      clearable
      data={data}
      value={value ? String(value.id) : null}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={typing && !q.isFetching ? t('nav.searchNoResults') : undefined}
      rightSection={q.isFetching ? <Loader size={14} /> : undefined}
      placeholder={t('accounts.ui.picker.placeholder')}
      onChange={(v, option) => {
        if (!v) {
          onChange(null);
          setSearch('');
        } else onChange({ id: Number(v), text: option?.label ?? v });
      }}
      data-testid={testId}
      withAsterisk={required}
      error={error}
      {...(autoFocus ? { 'data-autofocus': true } : {})}
    />
  );
}
