import { Loader, Select, type ComboboxItem, type OptionsFilter } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';

export type Picked = { id: number; text: string } | null;

/**
 * A searchable Select's wiring for picking a record by typing part of its text: `search` is asked
 * once typing stops (`debounceMs`) and its hits are offered beside the chosen one, which stays
 * shown; emptying the box drops the hits at once, the clear button clears the value, and a value
 * set from outside (a reset, a loaded filter) puts its text in the box. Spread `props` on the Select;
 * `nothingFound` says when to tell that nothing matched.
 */
export function usePickSearch(o: {
  value: Picked;
  onChange: (v: Picked) => void;
  queryKey: readonly unknown[];
  search: (text: string, signal: AbortSignal) => Promise<{ id: number; text: string }[]>;
  debounceMs?: number;
  staleTime?: number;
}) {
  const { value } = o;
  const [text, setText] = useState(value?.text ?? '');
  const [shownId, setShownId] = useState(value?.id ?? null);
  if ((value?.id ?? null) !== shownId) {
    setShownId(value?.id ?? null);
    setText(value?.text ?? '');
  }
  const [debounced] = useDebouncedValue(text.trim(), o.debounceMs ?? SEARCH_DEBOUNCE_MS);
  const typing = text.trim().length > 0 && debounced.length > 0 && debounced !== value?.text;
  const q = useQuery({ queryKey: [...o.queryKey, debounced], queryFn: ({ signal }) => o.search(debounced, signal), enabled: typing, staleTime: o.staleTime ?? 5000 });
  const found = typing ? (q.data ?? []) : [];
  const props = {
    searchable: true,
    clearable: true,
    data: [...(value ? [{ value: String(value.id), label: value.text }] : []), ...found.filter((h) => h.id !== value?.id).map((h) => ({ value: String(h.id), label: h.text }))],
    value: value ? String(value.id) : null,
    searchValue: text,
    onSearchChange: setText,
    filter: (({ options }) => options) as OptionsFilter,
    rightSection: q.isFetching ? <Loader size={14} /> : undefined,
    onChange: (v: string | null, option: ComboboxItem | null) => {
      const picked = v ? { id: Number(v), text: option?.label ?? v } : null;
      setShownId(picked?.id ?? null);
      if (!picked) setText('');
      o.onChange(picked);
    },
  };
  return { props, nothingFound: typing && q.isSuccess && !q.isFetching };
}

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
  const pick = usePickSearch({ value, onChange, queryKey: ['pick', queryKey], search });
  return (
    <Select
      {...(hideLabel ? { 'aria-label': label } : { label })}
      {...pick.props}
      // Clicking the chosen record again keeps it (the clear button empties the box).
      allowDeselect={false}
      nothingFoundMessage={pick.nothingFound ? t('nav.searchNoResults') : undefined}
      placeholder={placeholder}
      error={error}
      required={required}
      comboboxProps={{ withinPortal: true }}
      data-testid={testId}
    />
  );
}
