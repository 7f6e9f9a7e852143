import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { TextInput, type TextInputProps } from '@mantine/core';
import { useTranslation } from '../../lib/use-translation.tsx';
import { formatTypedNumber, readTypedNumber } from '../../lib/typed-number.ts';
import { INVALID_ENTRY, useReportInvalidEntry } from './invalid-entry.ts';

export type DecimalFieldProps = Omit<TextInputProps, 'value' | 'defaultValue' | 'onChange' | 'type' | 'error' | 'min' | 'max' | 'step'> & {
  value: number | '' | null | undefined;
  /** Called with the number (or '' when emptied) as soon as the typed text reads as one. */
  onChange: (value: number | '') => void;
  /** Decimals the field holds: 0 for whole numbers, 2 for money and areas. */
  scale: number;
  allowNegative?: boolean;
  /** Space thousands in what is shown (not for years and counts). */
  grouping?: boolean;
  /** A number with decimals shows all of them: 1 250,50 €, not 1 250,5 €. */
  padDecimals?: boolean;
  /** The unit after the number (€, m², km). */
  unit?: string;
  /** ArrowUp/ArrowDown step by this much (whole-number fields step by 1 when unset). */
  step?: number;
  min?: number;
  max?: number;
  /** An error of the form's own (the server's); the field's own, for a text that is no number, comes first. */
  error?: ReactNode;
  'data-testid'?: string;
  'data-autofocus'?: boolean;
};

/**
 * A number typed as agents write it (readTypedNumber): "250.000" and "1.250,50" in Greek, "1,250.50"
 * in English. Mantine's number input took the point of "250.000" for a decimal mark and stored
 * 250 € with no word. A text that is no number the field can hold keeps its place with an error
 * (and INVALID_ENTRY, so a form does not save around it); the value stays what it was. Left, the
 * field shows the number as the app writes it: "1 250,5".
 */
export function DecimalField({ value, onChange, scale, allowNegative = false, grouping = true, padDecimals = false, unit, step, min, max, error, onBlur, onKeyDown, ...rest }: DecimalFieldProps) {
  const { t } = useTranslation();
  const show = (v: typeof value) => (typeof v === 'number' && Number.isFinite(v) ? formatTypedNumber(v, grouping, padDecimals ? scale : 0) : '');
  const [text, setText] = useState(() => show(value));
  // The value last given or sent: a new one from outside (a reload, the other version of a conflict) replaces the text.
  const [known, setKnown] = useState<typeof value>(value ?? '');
  const [problem, setProblem] = useState<'format' | 'precision' | 'negative' | null>(null);
  useReportInvalidEntry(problem != null);
  if ((value ?? '') !== known) {
    setKnown(value ?? '');
    setText(show(value));
    setProblem(null);
  }

  const emit = (v: number | '') => {
    setKnown(v);
    if (v !== (value ?? '')) onChange(v);
  };

  const change = (next: string) => {
    setText(next);
    const r = readTypedNumber(next, scale, allowNegative);
    if (r.kind === 'bad') {
      setProblem(r.reason);
      return;
    }
    setProblem(null);
    emit(r.kind === 'empty' ? '' : r.value);
  };

  const stepBy = (e: KeyboardEvent<HTMLInputElement>, direction: 1 | -1) => {
    const by = step ?? (scale === 0 ? 1 : undefined);
    if (by == null) return;
    const r = readTypedNumber(text, scale, allowNegative);
    if (r.kind === 'bad') return;
    e.preventDefault();
    let next = Number(((r.kind === 'number' ? r.value : (min ?? 0) - direction * by) + direction * by).toFixed(scale));
    if (min != null) next = Math.max(min, next);
    if (max != null) next = Math.min(max, next);
    if (!allowNegative) next = Math.max(0, next);
    setText(show(next));
    setProblem(null);
    emit(next);
  };

  const own =
    problem === 'format'
      ? // A whole number (bedrooms, floors, years) is shown its own kind of example, not a price with cents.
        t(scale === 0 ? 'fields.number.formatWhole' : 'fields.number.format')
      : problem === 'precision'
        ? scale === 0
          ? t('fields.number.whole')
          : t('fields.number.precision', { count: scale })
        : problem === 'negative'
          ? t('fields.number.negative')
          : null;

  return (
    <TextInput
      {...rest}
      inputMode={scale === 0 && !allowNegative ? 'numeric' : 'decimal'}
      autoComplete="off"
      value={text}
      onChange={(e) => change(e.currentTarget.value)}
      onBlur={(e) => {
        if (!problem) setText(show(known === '' ? '' : (known as number)));
        onBlur?.(e);
      }}
      onKeyDown={(e) => {
        if (e.key === 'ArrowUp') stepBy(e, 1);
        else if (e.key === 'ArrowDown') stepBy(e, -1);
        onKeyDown?.(e);
      }}
      rightSection={unit}
      rightSectionWidth={unit ? Math.max(36, unit.length * 9 + 16) : undefined}
      rightSectionPointerEvents="none"
      error={own ?? error}
      {...{ [INVALID_ENTRY]: problem ? 'true' : undefined }}
    />
  );
}
