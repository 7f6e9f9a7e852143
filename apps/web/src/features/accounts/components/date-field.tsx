import '@mantine/dates/styles.css';
import { DateInput, DatesProvider, type DateInputProps } from '@mantine/dates';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { useTranslation } from 'react-i18next';
import { dateInputFormat } from '../../../lib/format.ts';
import { currentCulture } from '../../../lib/i18n.ts';

dayjs.extend(customParseFormat);

const DAYJS_LOCALE = { en: 'en-gb', el: 'el', ru: 'ru' } as const;

/** A date typed as DD/MM/YYYY (DD.MM.YYYY in Russian) or picked from a calendar in the interface language; value YYYY-MM-DD. */
export function DateField(props: DateInputProps) {
  const { t } = useTranslation();
  return (
    <DatesProvider settings={{ locale: DAYJS_LOCALE[currentCulture()], firstDayOfWeek: 1 }}>
      <DateInput valueFormat={dateInputFormat()} clearable clearButtonProps={{ 'aria-label': t('common.clearDate') }} placeholder={t('common.datePlaceholder')} {...props} />
    </DatesProvider>
  );
}
