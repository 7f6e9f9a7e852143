import '@mantine/dates/styles.css';
import { DateInput, DatesProvider, type DateInputProps } from '@mantine/dates';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../lib/use-translation.tsx';
import { markAgencyToday } from './agency-today.ts';
import { INVALID_ENTRY, useReportInvalidEntry } from './invalid-entry.ts';
import { dateInputFormat } from '../../lib/format.ts';
import { pickerLocale } from '../../lib/i18n.ts';
import { parseTypedDate } from '../../lib/typed-date.ts';
import { agencyToday } from '../../lib/agency-clock.ts';

dayjs.extend(customParseFormat);

/**
 * A date typed as DD/MM/YYYY (DD.MM.YYYY in Russian) or picked from a calendar in the interface
 * language; value YYYY-MM-DD. What is typed is read strictly: "31/02/2026" is not a date, and it
 * stays in the box with a translated error once the field is left (the value keeps what it was;
 * a form checks `focusInvalidEntry` before it saves). The calendar's own reading would have made it
 * 3 March without a word.
 */
export function DateField(props: DateInputProps) {
  const { t } = useTranslation();
  // The text in the box is no date (as typed now), and whether that is said (once the field was left).
  const [invalid, setInvalid] = useState(false);
  useReportInvalidEntry(invalid);
  const [told, setTold] = useState(false);
  const { value, onBlur } = props;
  useEffect(() => {
    // A value set from outside (picked, reset, loaded) replaces whatever was typed.
    setInvalid(false);
    setTold(false);
  }, [value]);
  return (
    <DatesProvider settings={pickerLocale()}>
      <DateInput
        valueFormat={dateInputFormat()}
        // Its × (named, reached with Tab) comes from the theme: app/clear-buttons.ts.
        clearable
        placeholder={t('common.datePlaceholder')}
        getDayProps={markAgencyToday}
        {...props}
        dateParser={(text) => {
          const date = parseTypedDate(text, Number(agencyToday().slice(0, 4)));
          const bad = date === null && text.trim() !== '';
          setInvalid(bad);
          if (!bad) setTold(false);
          return date;
        }}
        // A bad text is kept to be corrected; a good one is written back in the field's format.
        fixOnBlur={!invalid}
        onInput={(e) => {
          // Emptied: no date, and nothing wrong (the calendar's parser is not asked for an empty text).
          if (!e.currentTarget.value.trim()) {
            setInvalid(false);
            setTold(false);
          }
        }}
        onBlur={(e) => {
          if (invalid) setTold(true);
          onBlur?.(e);
        }}
        error={props.error || (invalid && told ? t('validation.date') : undefined)}
        {...{ [INVALID_ENTRY]: invalid ? 'true' : undefined }}
      />
    </DatesProvider>
  );
}
