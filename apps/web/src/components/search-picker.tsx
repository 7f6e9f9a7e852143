import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';

export type Picked = { id: number; text: string } | null;

/**
 * Picks a record by typing part of its text: `search` is asked 400 ms after typing stops and its
 * hits are offered; the chosen one stays shown. Used for leads (by client name or number) and
 * objects (by reference number or title).
 */
export function SearchPicker({
  label,
  value,
  onChange,
  search,
  queryKey,
  testId,
  placeholder,
  error,
  required,
  hideLabel,
}: {
  label: string;
  /** In a table whose column head already says it: the label is the input's name, not shown. */
  hideLabel?: boolean;
  value: Picked;
  onChange: (v: Picked) => void;
  search: (text: string, signal: AbortSignal) => Promise<{ id: number; text: string }[]>;
  queryKey: string;
  testId?: string;
  placeholder?: string;
  /** The server's word on this field (e.g. "choose the lead or a property"), shown under it. */
  error?: string;
  required?: boolean;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(value?.text ?? '');
  const [debounced] = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const typing = debounced.length > 0 && debounced !== value?.text;
  const q = useQuery({ queryKey: ['pick', queryKey, debounced], queryFn: ({ signal }) => search(debounced, signal), enabled: typing, staleTime: 5000 });
  const found = typing ? (q.data ?? []) : [];
  const data = [...(value ? [{ value: String(value.id), label: value.text }] : []), ...found.filter((h) => h.id !== value?.id).map((h) => ({ value: String(h.id), label: h.text }))];
  return (
    <Select
      {...(hideLabel ? { 'aria-label': label } : { label })}
      searchable
      clearable
      // Clicking the chosen record again keeps it (the clear button empties the box).
      allowDeselect={false}
      data={data}
      value={value ? String(value.id) : null}
      searchValue={text}
      onSearchChange={setText}
      filter={({ options }) => options}
      nothingFoundMessage={typing && !q.isFetching ? t('nav.searchNoResults') : undefined}
      rightSection={q.isFetching ? <Loader size={14} /> : undefined}
      placeholder={placeholder}
      error={error}
      required={required}
      onChange={(v, option) => {
        if (!v) {
          onChange(null);
          setText('');
        } else onChange({ id: Number(v), text: option?.label ?? v });
      }}
      comboboxProps={{ withinPortal: true }}
      data-testid={testId}
    />
  );
}
