import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Checkbox, Group, Input, MultiSelect, SegmentedControl, Select, SimpleGrid, Switch, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from '../../lib/use-translation.tsx';
import type { TFieldType, TSelectOption } from '@crm/contract';
import type { TFieldDescriptionOf } from '@crm/contract/field-description';
import { LOCATION_SEARCH_DEBOUNCE_MS, SEARCH_MAX_HITS } from '@crm/contract/constants';
import { formatDistance } from '../../lib/format.ts';
import type { Draft } from './field-values.ts';
import { loadLocationOptions } from './location-options.ts';
import { DateField } from './date-field.tsx';
import { TimeField } from './time-field.tsx';
import { DecimalField } from './decimal-field.tsx';

export type FieldInputProps = {
  type: TFieldType;
  label: string;
  value: Draft;
  onChange: (v: Draft) => void;
  error?: string;
  options: TSelectOption[];
  required?: boolean;
  maxLength?: number;
  /** location: the matches of a search text (default: the agency's places, GET /api/location/search). */
  loadOptions?: (search: string) => Promise<TSelectOption[]>;
  /** location: the text of the current value. */
  valueText?: string;
  /** location: what the empty box says (default: search the agency's places). */
  placeholder?: string;
  /** data-testid of the input (default "field-input", the single-field editor's). */
  testId?: string;
  /** Focus the input when it appears (the single-field editor's dialog; default true). */
  autoFocus?: boolean;
  /** Shown under the label (e.g. what a value means). */
  description?: ReactNode;
  /** Numbers: bounds and step. */
  min?: number;
  max?: number;
  step?: number;
  integer?: boolean;
  disabled?: boolean;
  /** textarea: the rows shown at first (default 8). */
  minRows?: number;
  /** select: whether the value may be cleared (default: when not required); when given, picking the chosen option again keeps it. */
  clearable?: boolean;
  /** date, and the date of a date-time: the input to use instead of the browser's date input (e.g. one typed as DD/MM/YYYY with a calendar). */
  renderDate?: (p: DateInputProps) => ReactNode;
  /** date-time: data-testid of the time input (default "<testId>-time"). */
  timeTestId?: string;
};

/** What a date input gets: the value and its change as "YYYY-MM-DD" (or null). */
export type DateInputProps = { label: string; value: string | null; onChange: (v: string | null) => void; error?: string; required?: boolean; disabled?: boolean; testId: string };

/**
 * A date typed as DD/MM/YYYY (DD.MM.YYYY in Russian) or picked from a calendar in the interface's
 * language. The browser's own date input follows the browser's locale, not the interface's: a Greek
 * screen in an English browser showed MM/DD/YYYY.
 */
const calendarDate = (p: DateInputProps) => (
  <DateField label={p.label} required={p.required} value={p.value} onChange={(v) => p.onChange(v)} error={p.error} disabled={p.disabled} data-testid={p.testId} />
);

/** What every input of a field gets: label, error, mark, description, focus, test id. */
const commonOf = (p: FieldInputProps) => ({
  label: p.label,
  error: p.error,
  required: p.required,
  description: p.description,
  disabled: p.disabled,
  ...(p.autoFocus === false ? {} : { 'data-autofocus': true }),
  'data-testid': p.testId ?? 'field-input',
});

/** The one input of the single-field editor, by field type. */
/** A described field's limits as its input takes them: `max` bounds a number and is the longest a text may be. */
export const boundsOf = (d: Pick<TFieldDescriptionOf, 'min' | 'max' | 'step' | 'integer'>) => ({ maxLength: d.max, min: d.min, max: d.max, step: d.step, integer: d.integer });

export function FieldInput(p: FieldInputProps) {
  const common = commonOf(p);
  switch (p.type) {
    case 'textarea':
      return (
        <Textarea {...common} value={String(p.value ?? '')} onChange={(e) => p.onChange(e.currentTarget.value)} autosize minRows={p.minRows ?? 8} maxRows={16} maxLength={p.maxLength ?? 20000} />
      );
    case 'number':
    case 'distance':
    case 'distance-km':
    case 'currency':
    case 'area':
      return <NumericInput {...p} />;
    case 'date':
    case 'date-time':
      return <DateInput {...p} />;
    case 'money':
      // Exact text, as typed ("1.500", "1.234,56", "1,234.56"): read as every number of the app and
      // posted as the exact decimal (toWire, parseAmount), never a float.
      return <TextInput {...common} inputMode="decimal" rightSection="€" value={String(p.value ?? '')} onChange={(e) => p.onChange(e.currentTarget.value)} maxLength={40} />;
    case 'location':
      return <LocationInput {...p} />;
    case 'select':
    case 'enum':
    case 'multi-select':
      return <SelectInput {...p} />;
    case 'flag-enum':
    case 'boolNullable':
    case 'boolean':
      return <ChoiceInput {...p} />;
    default:
      return (
        <TextInput {...common} value={String(p.value ?? '')} onChange={(e) => p.onChange(e.currentTarget.value)} maxLength={p.maxLength ?? 200} />
      );
  }
}

/** Numbers are typed as agents write them ("250.000", "1.250,50"): see DecimalField. */
function NumericInput(p: FieldInputProps) {
  const { t } = useTranslation();
  const m = typeof p.value === 'number' ? p.value : null;
  const o: { scale: number; unit?: string; grouping?: boolean; padDecimals?: boolean; description?: ReactNode } =
    p.type === 'distance'
      ? {
          scale: 0,
          unit: t('common.unitMetre'),
          // The distance in kilometres as read, above any note of the field's own (a value another person's save replaced).
          description:
            m != null && m >= 1000 ? (
              p.description ? (
                <>
                  <span>{formatDistance(m)}</span>
                  {p.description}
                </>
              ) : (
                formatDistance(m)
              )
            ) : (
              p.description
            ),
        }
      : p.type === 'distance-km'
        ? { scale: 1, unit: t('common.unitKm') }
        : p.type === 'currency'
          ? { scale: 2, unit: '€', padDecimals: true }
          : p.type === 'area'
            ? { scale: 2, unit: t('common.areaUnit') }
            : { scale: 6, grouping: !(p.integer && (p.max ?? 0) <= 9999) };
  return (
    <DecimalField
      {...commonOf(p)}
      {...(o.description !== undefined ? { description: o.description } : {})}
      value={typeof p.value === 'number' ? p.value : p.value === '' || p.value == null ? '' : Number(p.value)}
      onChange={(v) => p.onChange(v)}
      scale={p.integer ? 0 : o.scale}
      allowNegative={p.type === 'number' && (p.min == null || p.min < 0)}
      grouping={o.grouping ?? true}
      padDecimals={o.padDecimals ?? false}
      unit={o.unit}
      min={p.min ?? (p.type === 'number' ? undefined : 0)}
      max={p.max}
      step={p.step}
    />
  );
}

/** A date; a date-time is two inputs, a date and a time of day (24-hour HH:mm, the app's own field), held as [date, time] and joined on save. */
function DateInput(p: FieldInputProps) {
  const { t } = useTranslation();
  const testId = p.testId ?? 'field-input';
  const dateInput = p.renderDate ?? calendarDate;
  const props = { label: p.label, error: p.error, required: p.required, disabled: p.disabled, testId };
  if (p.type === 'date') return dateInput({ ...props, value: (p.value as string | null) || null, onChange: (v) => p.onChange(v ?? '') });
  const [date = '', time = ''] = Array.isArray(p.value) ? p.value : [];
  const inputs = (
    <Group gap="xs" align="flex-start" wrap="nowrap" grow>
      {dateInput({ ...props, value: date || null, onChange: (v) => p.onChange([v ?? '', time]) })}
      <TimeField label={t('fields.timeOfDay')} required={p.required} disabled={p.disabled} value={time} onChange={(v) => p.onChange([date, v])} data-testid={p.timeTestId ?? `${testId}-time`} />
    </Group>
  );
  if (!p.description) return inputs;
  // A note of the field's own (a value another person's save replaced) under both inputs.
  return (
    <div>
      {inputs}
      <Input.Description component="div" mt={4}>
        {p.description}
      </Input.Description>
    </div>
  );
}

/** One of a list (select, enum) or several (multi-select). */
function SelectInput(p: FieldInputProps) {
  const { t } = useTranslation();
  const shared = {
    ...commonOf(p),
    data: p.options.map((o) => ({ value: String(o.value), label: o.text })),
    nothingFoundMessage: t('fields.noMatches'),
    comboboxProps: { withinPortal: true },
  };
  if (p.type === 'multi-select') {
    return <MultiSelect {...shared} value={Array.isArray(p.value) ? p.value : []} onChange={(v) => p.onChange(v)} clearable hidePickedOptions={false} />;
  }
  return (
    <Select
      {...shared}
      value={(p.value as string | null) ?? null}
      onChange={(v) => p.onChange(v)}
      clearable={p.clearable ?? !p.required}
      {...(p.clearable === undefined ? {} : { allowDeselect: p.clearable })}
      searchable={p.options.length > 8}
    />
  );
}

/** Flags (checkboxes), yes/no/not set, or a switch. */
function ChoiceInput(p: FieldInputProps) {
  const { t } = useTranslation();
  const testId = p.testId ?? 'field-input';
  if (p.type === 'flag-enum') {
    return (
      <Checkbox.Group label={p.label} description={p.description} error={p.error} value={(p.value as string[]) ?? []} onChange={(v) => p.onChange(v)} data-testid={testId}>
        {/* A long list of flags (a lead's wanted features) uses the width it is given. */}
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 4 }} spacing={6} verticalSpacing={6} mt={6}>
          {p.options.map((o) => (
            <Checkbox key={String(o.value)} value={String(o.value)} label={o.text} />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
    );
  }
  if (p.type === 'boolNullable') {
    return (
      <Input.Wrapper label={p.label} description={p.description} error={p.error}>
        <div>
          <SegmentedControl
            mt={4}
            value={String(p.value ?? 'null')}
            onChange={(v) => p.onChange(v)}
            data={[
              { value: 'true', label: t('common.yes') },
              { value: 'false', label: t('common.no') },
              { value: 'null', label: t('fields.notSet') },
            ]}
            data-testid={testId}
            disabled={p.disabled}
          />
        </div>
      </Input.Wrapper>
    );
  }
  const { required: _, ...common } = commonOf(p);
  return <Switch mt={4} {...common} checked={p.value === 'true'} onChange={(e) => p.onChange(e.currentTarget.checked ? 'true' : 'false')} />;
}

/** Autocomplete over `loadOptions` (debounced like every search), keeping the chosen option. */
function LocationInput(p: FieldInputProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<TSelectOption[]>([]);
  // The text of a place picked here (the given valueText names the value it started with).
  const [picked, setPicked] = useState<TSelectOption | null>(null);
  const shownText = picked && String(picked.value) === String(p.value) ? picked.text : (p.valueText ?? String(p.value));
  const current: TSelectOption[] = p.value != null && p.value !== '' ? [{ value: String(p.value), text: shownText }] : [];
  const seq = useRef(0);
  const loadOptions = p.loadOptions ?? loadLocationOptions;

  // 500 ms after the last keystroke, at most 20 places; an empty text (or the chosen place's own
  // text, shown after picking it) clears the suggestions.
  const currentText = current[0]?.text;
  useEffect(() => {
    const text = search.trim();
    const n = ++seq.current;
    if (!loadOptions || !text || text === currentText) {
      setFound([]);
      return;
    }
    const timer = window.setTimeout(() => {
      loadOptions(text)
        .then((list) => {
          if (n === seq.current) setFound(list.slice(0, SEARCH_MAX_HITS));
        })
        .catch(() => {
          if (n === seq.current) setFound([]);
        });
    }, LOCATION_SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [search, loadOptions, currentText]);

  const data = [...current, ...found.filter((o) => !current.some((c) => String(c.value) === String(o.value)))].map((o) => ({
    value: String(o.value),
    label: o.text,
  }));
  return (
    <Select
      {...commonOf(p)}
      data={data}
      value={(p.value as string | null) ?? null}
      onChange={(v, option) => {
        setPicked(v && option ? { value: v, text: option.label } : null);
        p.onChange(v);
      }}
      searchable
      clearable={!p.required}
      // Clicking the chosen place again keeps it (the clear button empties the box).
      allowDeselect={false}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      placeholder={p.placeholder ?? t('fields.searchLocation')}
      nothingFoundMessage={search.trim() ? t('fields.noMatches') : undefined}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
