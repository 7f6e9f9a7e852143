import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from '../../lib/use-translation.tsx';
import { SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import { describeError } from '../../lib/errors.ts';
import { searchAccounts, searchRecords, type TPickItem } from './api.ts';

type Source = { kind: 'accounts'; filter: 1 | 2 } | { kind: 'records' };

/**
 * Picks a record by typing part of its name, searching the server 400 ms after the last key.
 * With `value` it shows the chosen record (the assignee); without, it is a "pick to add" box that
 * empties itself after each pick (assignments, links).
 */
export function SearchPicker({
  source,
  value,
  onPick,
  label,
  placeholder,
  error,
  testId,
  disabled,
  leftSection,
  ariaLabel,
}: {
  source: Source;
  value?: TPickItem | null;
  onPick: (item: TPickItem | null) => void;
  label?: string;
  placeholder?: string;
  error?: ReactNode;
  testId?: string;
  disabled?: boolean;
  leftSection?: ReactNode;
  ariaLabel?: string;
}) {
  const { t } = useTranslation();
  const keepsValue = value !== undefined;
  const [search, setSearch] = useState(value?.description ?? '');
  // The chosen record changed from outside (reloaded after a conflict): show its name.
  const valueKey = value ? `${value.entity ?? ''}:${value.id}` : '';
  useEffect(() => {
    if (keepsValue) setSearch(value?.description ?? '');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [valueKey]);
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const typing = debounced.length > 0 && debounced !== value?.description;
  const q = useQuery({
    queryKey: ['picker', source.kind, source.kind === 'accounts' ? source.filter : 0, debounced],
    queryFn: ({ signal }) => (source.kind === 'accounts' ? searchAccounts(debounced, source.filter, signal) : searchRecords(debounced, signal)),
    enabled: typing,
    staleTime: 5000,
    meta: { handlesErrors: true },
  });
  const found: TPickItem[] = typing ? (q.data?.items ?? []) : [];
  const keyOf = (i: TPickItem) => `${i.entity ?? ''}:${i.id}`;
  const data = [
    ...(value ? [{ value: keyOf(value), label: value.description }] : []),
    ...found
      .filter((h) => !value || keyOf(h) !== keyOf(value))
      .map((h) => ({ value: keyOf(h), label: h.entity ? `${h.description} · ${t(`searchEntity.${h.entity}`, { defaultValue: h.entity })}` : h.description })),
  ];
  const nothing = q.isError ? describeError(q.error).message : typing && !q.isFetching ? t('activities.nothingFound') : undefined;
  return (
    <Select
      label={label}
      placeholder={placeholder}
      searchable
      clearable={keepsValue}
      disabled={disabled}
      data={data}
      value={value ? keyOf(value) : null}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={nothing}
      error={error}
      leftSection={leftSection}
      rightSection={q.isFetching ? <Loader size={14} /> : undefined}
      onChange={(v) => {
        if (!v) {
          setSearch('');
          onPick(null);
          return;
        }
        const item = found.find((h) => keyOf(h) === v) ?? (value && keyOf(value) === v ? value : null);
        if (!item) return;
        onPick(item);
        setSearch(keepsValue ? item.description : '');
      }}
      aria-label={ariaLabel}
      data-testid={testId}
    />
  );
}
