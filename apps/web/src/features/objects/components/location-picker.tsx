import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { LOCATION_SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import { searchLocations } from '../api/locations.ts';

/** A chosen place: its id and its path as text ("Kalamaria, Thessaloniki"). */
export type TPickedLocation = { id: number; text: string } | null;

/**
 * Picks a place by typing part of its name in any language (GET /api/location/search, 500 ms
 * after the last keystroke, at most 20 places, each with its path). Emptying the text clears the
 * suggestions; the clear button clears the value.
 */
export function LocationPicker({
  label,
  value,
  onChange,
  testId,
  error,
  required,
  description,
}: {
  label: string;
  value: TPickedLocation;
  onChange: (v: TPickedLocation) => void;
  testId?: string;
  error?: string;
  required?: boolean;
  description?: string;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState(value?.text ?? '');
  // A value set from outside (a reset, a loaded filter): its text in the box.
  const [shownId, setShownId] = useState(value?.id ?? null);
  if ((value?.id ?? null) !== shownId) {
    setShownId(value?.id ?? null);
    setSearch(value?.text ?? '');
  }
  const [debounced] = useDebouncedValue(search.trim(), LOCATION_SEARCH_DEBOUNCE_MS);
  const typing = search.trim().length > 0 && debounced.length > 0 && debounced !== value?.text;
  const q = useQuery({
    queryKey: ['locationSearch', debounced],
    queryFn: ({ signal }) => searchLocations(debounced, signal),
    enabled: typing,
    staleTime: 60000,
  });
  const found = typing ? (q.data ?? []) : [];
  const data = [
    ...(value ? [{ value: String(value.id), label: value.text }] : []),
    ...found.filter((h) => h.id !== value?.id).map((h) => ({ value: String(h.id), label: h.text })),
  ];
  return (
    <Select
      label={label}
      description={description}
      error={error}
      required={required}
      searchable
      clearable
      data={data}
      value={value ? String(value.id) : null}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={typing && q.isSuccess && !q.isFetching ? t('objectsearch.location.noMatches') : undefined}
      rightSection={q.isFetching ? <Loader size={14} /> : undefined}
      placeholder={t('objectsearch.location.placeholder')}
      comboboxProps={{ withinPortal: true }}
      onChange={(v, option) => {
        if (!v) {
          setShownId(null);
          onChange(null);
          setSearch('');
        } else {
          setShownId(Number(v));
          onChange({ id: Number(v), text: option?.label ?? v });
        }
      }}
      data-testid={testId}
    />
  );
}
