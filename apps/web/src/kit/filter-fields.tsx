import { Checkbox, CloseButton, Grid, MultiSelect, Select, TextInput, type GridColProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { ChoicesFilter } from '../components/fields/choices-filter.tsx';
import { DateField } from '../components/fields/date-field.tsx';
import { DecimalField } from '../components/fields/decimal-field.tsx';
import { SearchPicker, type Picked } from '../components/search-picker.tsx';
import { ClearFiltersButton } from '../components/clear-filters.tsx';
import { AccountPicker } from '../components/account-picker.tsx';
import { IconSearch } from '../components/icons.ts';

/** A choice of a select list as the server gives it. */
export type TOption = { value: string | number; text: string };
type Span = GridColProps['span'];
/** `also`: what else a change of the field changes (a type clears its category; a pick clears a typed name). */
type Common<F> = { label: string; testId?: string; span?: Span; also?: (value: unknown) => Partial<F> };

/**
 * One field of a list's filter card, declared (decision 057): the kit draws it, in the card's grid,
 * with the list's own test id (`${list}-filter-${name}`) unless one is given. Text and numbers are
 * the filter's own values; a picker keeps the record's id and the text it showed.
 */
export type FilterField<F> =
  /** `prefix`: what stands before the text (the keys' "#"); `clear`: a button in the box that empties it (named for screen readers). */
  | (Common<F> & { kind: 'text'; name: keyof F & string; placeholder?: string; description?: string; maxLength?: number; search?: boolean; prefix?: ReactNode; inputMode?: 'numeric'; clear?: { label: string; testId: string } })
  | (Common<F> & { kind: 'select'; name: keyof F & string; options: TOption[] | undefined; numeric?: boolean; clearable?: boolean; searchable?: boolean })
  | (Common<F> & { kind: 'multi'; name: keyof F & string; options: TOption[] | undefined; allLabel: string; searchable?: boolean })
  /**
   * A date; `shown` is what it shows while the filter holds none of its own (undefined: the server's
   * default period), and `alongside` is set with it (the period's other end as shown).
   */
  | (Common<F> & { kind: 'date'; name: keyof F & string; shown?: string | null; alongside?: Partial<F> })
  | (Common<F> & { kind: 'decimal'; name: keyof F & string; scale?: number; unit?: string })
  | (Common<F> & { kind: 'picker'; name: keyof F & string; textName: keyof F & string; search: (text: string, signal: AbortSignal) => Promise<{ id: number; text: string }[]>; queryKey: string })
  | (Common<F> & { kind: 'check'; name: keyof F & string })
  /** An account (by name, phone, e-mail; `filter` 1: employees only), its id and the text it showed. */
  | (Common<F> & { kind: 'account'; name: keyof F & string; textName: keyof F & string; filter: 0 | 1 | 2 })
  | { kind: 'custom'; key: string; span?: Span; render: () => ReactNode };

const SPAN: Record<FilterField<unknown>['kind'], Span> = {
  text: { base: 12, sm: 6, lg: 2 },
  select: { base: 12, sm: 6, lg: 2 },
  multi: { base: 12, sm: 6, lg: 3 },
  date: { base: 6, sm: 3, lg: 2 },
  decimal: { base: 6, lg: 2 },
  picker: { base: 12, sm: 6, lg: 2 },
  check: { base: 12, sm: 6, lg: 'content' },
  account: { base: 12, sm: 6, lg: 3 },
  custom: { base: 12, sm: 6, lg: 2 },
};

const toData = (o: TOption[] | undefined) => (o ?? []).map((x) => ({ value: String(x.value), label: x.text }));

/** The filter card's grid: each declared field, then "Clear filters". */
export function FilterFields<F extends Record<string, unknown>>({
  fields,
  filter,
  change,
  filtered,
  onClear,
  testId,
  clearTestId,
}: {
  fields: FilterField<F>[];
  filter: F;
  change: (patch: Partial<F>) => void;
  filtered: boolean;
  onClear: () => void;
  testId: string;
  clearTestId?: string;
}) {
  return (
    <Grid gap="sm" align="flex-end">
      {fields.map((f) => (
        <Grid.Col key={f.kind === 'custom' ? f.key : f.name} span={f.span ?? SPAN[f.kind]}>
          {f.kind === 'custom' ? f.render() : <FilterInput field={f} filter={filter} change={change} testId={f.testId ?? `${testId}-${f.name}`} />}
        </Grid.Col>
      ))}
      <Grid.Col span={{ base: 12, sm: 6, lg: 'content' }}>
        <ClearFiltersButton fullWidth disabled={!filtered} onClear={onClear} data-testid={clearTestId ?? `${testId}-clear`} />
      </Grid.Col>
    </Grid>
  );
}

function FilterInput<F extends Record<string, unknown>>({ field: f, filter, change, testId }: { field: Exclude<FilterField<F>, { kind: 'custom' }>; filter: F; change: (patch: Partial<F>) => void; testId: string }) {
  const set = (v: unknown) => change({ [f.name]: v, ...f.also?.(v) } as Partial<F>);
  const value = filter[f.name];
  switch (f.kind) {
    case 'text':
      return (
        <TextInput
          label={f.label}
          placeholder={f.placeholder}
          description={f.description}
          value={String(value ?? '')}
          onChange={(e) => set(e.currentTarget.value)}
          maxLength={f.maxLength}
          inputMode={f.inputMode}
          leftSection={f.search ? <IconSearch size={16} /> : f.prefix}
          rightSection={f.clear && value ? <CloseButton aria-label={f.clear.label} onClick={() => set('')} data-testid={f.clear.testId} /> : null}
          data-testid={testId}
        />
      );
    case 'select':
      return (
        <Select
          label={f.label}
          data={toData(f.options)}
          // "" is "none chosen", unless it is a choice of its own (the statement's "All").
          value={value == null || (value === '' && !f.options?.some((o) => o.value === '')) ? null : String(value)}
          allowDeselect={f.clearable ?? false}
          clearable={f.clearable}
          searchable={f.searchable}
          onChange={(v) => set(f.numeric ? Number(v ?? 0) : (v ?? ''))}
          data-testid={testId}
        />
      );
    case 'multi': {
      const chosen = ((value as (string | number)[] | undefined) ?? []).map(String);
      const numeric = (f.options ?? []).every((o) => typeof o.value === 'number');
      const onChange = (v: string[]) => set(numeric ? v.map(Number) : v);
      // A long list (the sources) keeps its chosen items out of the way; a short one shows them as pills.
      return f.searchable ? (
        <ChoicesFilter
          loaded={f.options !== undefined}
          label={f.label}
          placeholder={chosen.length ? undefined : f.allLabel}
          data={toData(f.options)}
          value={chosen}
          onChange={onChange}
          searchable
          clearable
          data-testid={testId}
        />
      ) : (
        <MultiSelect label={f.label} placeholder={chosen.length ? undefined : f.allLabel} data={toData(f.options)} value={chosen} onChange={onChange} clearable data-testid={testId} />
      );
    }
    case 'date':
      return (
        <DateField
          label={f.label}
          value={value === undefined ? (f.shown ?? null) : ((value as string | null) ?? null)}
          onChange={(v) => change({ ...f.alongside, [f.name]: v } as Partial<F>)}
          data-testid={testId}
        />
      );
    case 'decimal':
      return <DecimalField label={f.label} value={(value as number | null | undefined) ?? ''} onChange={(v) => set(v === '' ? null : v)} scale={f.scale ?? 0} unit={f.unit} data-testid={testId} />;
    case 'picker': {
      const id = value as number | null;
      const picked: Picked = id ? { id, text: String(filter[f.textName] ?? '') } : null;
      return <SearchPicker label={f.label} value={picked} onChange={(v) => change({ [f.name]: v?.id ?? null, [f.textName]: v?.text ?? '', ...f.also?.(v) } as Partial<F>)} search={f.search} queryKey={f.queryKey} testId={testId} />;
    }
    case 'account': {
      const id = value as number | null;
      return (
        <AccountPicker
          // A cleared filter clears the box too (its text is its own while typing).
          key={id ?? 'none'}
          label={f.label}
          filter={f.filter}
          value={id != null ? { id, text: String(filter[f.textName] ?? '') } : null}
          onChange={(v) => change({ [f.name]: v?.id ?? null, [f.textName]: v?.text ?? '' } as Partial<F>)}
          testId={testId}
        />
      );
    }
    case 'check':
      return <Checkbox label={f.label} checked={value === true} onChange={(e) => set(e.currentTarget.checked)} data-testid={testId} />;
  }
}
