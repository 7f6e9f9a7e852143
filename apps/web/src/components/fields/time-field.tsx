import { useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { TextInput, type TextInputProps } from '@mantine/core';
import { useTranslation } from '../../lib/use-translation.tsx';
import { parseTimeOfDay, stepTimeOfDay } from '../../lib/time-of-day.ts';
import { INVALID_ENTRY, useReportInvalidEntry } from './invalid-entry.ts';

export type TimeFieldProps = Omit<TextInputProps, 'value' | 'defaultValue' | 'onChange' | 'type' | 'error'> & {
  /** "HH:mm", or "" for no time. */
  value: string;
  /** Called with "HH:mm" (or "" when emptied and not required) once the typed text reads as a time. */
  onChange: (value: string) => void;
  /** An error of the form's own (e.g. the server's); the field's own, for a text that is no time, comes first. */
  error?: ReactNode;
  'data-testid'?: string;
};

/**
 * A time of day typed as 24-hour HH:mm, whatever the browser's locale (its own time input showed
 * "08:19 PM" in an English browser, cut to "08:19 P" in a narrow form). What is typed is read
 * leniently ("9", "930", "9:30", "09.30", "8:19 PM") and written back as "09:30" when the field is
 * left or Enter is pressed. A text that is no time keeps its place in the box with an error, and
 * the value stays what it was. ArrowUp/ArrowDown step the part the caret is in: the hours before
 * the colon, the minutes after it.
 */
export function TimeField({ value, onChange, error, required, onBlur, onKeyDown, maxLength, ...rest }: TimeFieldProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  // The value last shown: a new one from outside (a reload, a conflict's current version) replaces the text.
  const [shown, setShown] = useState(value);
  const [problem, setProblem] = useState<'invalid' | 'required' | null>(null);
  useReportInvalidEntry(problem != null);
  const input = useRef<HTMLInputElement>(null);
  const selectAfterStep = useRef<'hours' | 'minutes' | null>(null);
  if (value !== shown) {
    setShown(value);
    setText(value);
    setProblem(null);
  }

  const problemOf = (s: string) => {
    const parsed = parseTimeOfDay(s);
    return parsed == null ? ('invalid' as const) : parsed === '' && required ? ('required' as const) : null;
  };

  const commit = () => {
    if (text === value) {
      setProblem(null);
      return;
    }
    const found = problemOf(text);
    setProblem(found);
    if (found) return;
    const parsed = parseTimeOfDay(text)!;
    setText(parsed);
    if (parsed !== value) onChange(parsed);
  };

  const step = (e: KeyboardEvent<HTMLInputElement>, delta: number) => {
    const current = parseTimeOfDay(text);
    if (current == null) return;
    e.preventDefault();
    // The caret before the separator steps the hours; in digits alone, before the last two ("9", "21" are hours).
    const sep = text.search(/[:.,h\s]/);
    const digits = text.trim().length;
    const hoursEnd = sep >= 0 ? sep : digits <= 2 ? Infinity : digits - 2;
    const part = (e.currentTarget.selectionStart ?? 0) <= hoursEnd ? 'hours' : 'minutes';
    const next = stepTimeOfDay(current, part, delta);
    selectAfterStep.current = part;
    setText(next);
    setProblem(null);
    if (next !== value) onChange(next);
  };

  // After a step, the part stepped stays selected (as in the browser's time input), so the next arrow steps it again.
  useLayoutEffect(() => {
    const part = selectAfterStep.current;
    if (!part || !input.current) return;
    selectAfterStep.current = null;
    if (part === 'hours') input.current.setSelectionRange(0, 2);
    else input.current.setSelectionRange(3, 5);
  });

  const message = problem === 'invalid' ? t('fields.invalidTime') : problem === 'required' ? t('validation.required') : error;
  return (
    <TextInput
      ref={input}
      type="text"
      inputMode="numeric"
      autoComplete="off"
      spellCheck={false}
      placeholder={t('fields.timePlaceholder')}
      maxLength={maxLength ?? 12}
      miw="6.5rem"
      {...rest}
      required={required}
      value={text}
      error={message}
      {...{ [INVALID_ENTRY]: problem ? 'true' : undefined }}
      onChange={(e) => {
        const next = e.currentTarget.value;
        setText(next);
        // Once shown, the error follows the text; a new one waits until the field is left.
        if (problem) setProblem(problemOf(next));
      }}
      onBlur={(e) => {
        commit();
        onBlur?.(e);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
        else if (e.key === 'ArrowUp') step(e, 1);
        else if (e.key === 'ArrowDown') step(e, -1);
        onKeyDown?.(e);
      }}
      styles={{ input: { fontVariantNumeric: 'tabular-nums' } }}
    />
  );
}
