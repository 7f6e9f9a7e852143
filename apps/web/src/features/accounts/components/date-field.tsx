import '@mantine/dates/styles.css';
import { DateInput, DatesProvider, type DateInputProps } from '@mantine/dates';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { currentCulture } from '../../../lib/i18n.ts';

dayjs.extend(customParseFormat);

const DAYJS_LOCALE = { en: 'en-gb', el: 'el', ru: 'ru' } as const;

/** A date typed as DD/MM/YYYY or picked from a calendar in the interface language; value YYYY-MM-DD. */
export function DateField(props: DateInputProps) {
  return (
    <DatesProvider settings={{ locale: DAYJS_LOCALE[currentCulture()], firstDayOfWeek: 1 }}>
      <DateInput valueFormat="DD/MM/YYYY" clearable placeholder="DD/MM/YYYY" {...props} />
    </DatesProvider>
  );
}
