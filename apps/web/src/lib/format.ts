import { INTL_LOCALE, currentCulture, i18n } from './i18n.ts';
import { formatTypedNumber, groupThousands } from './typed-number.ts';

const group = (n: number, decimals: number) => {
  const fixed = Math.abs(n).toFixed(decimals);
  const [int, frac] = fixed.split('.');
  return `${n < 0 ? '-' : ''}${groupThousands(int!)}${frac ? `,${frac}` : ''}`;
};

/** Money as the agency writes it: 1 234 € (space thousands, comma decimals, symbol after). */
export const formatMoney = (n: number | null | undefined) => (n == null ? '' : `${group(n, 0)}\u00a0€`);
/** The currency_2 format: two decimals. */
export const formatMoney2 = (n: number | null | undefined) => (n == null ? '' : `${group(n, 2)}\u00a0€`);
/**
 * An exact decimal text from the API ("-1234.50") as the agency writes money: space thousands,
 * comma decimals, the euro sign after ("-1 234,50 €"). Works on the text, never through a float.
 */
export function formatAmount(s: string | null | undefined): string {
  if (s == null || s === '') return '';
  const neg = s.startsWith('-');
  const [int = '0', frac = ''] = (neg ? s.slice(1) : s).split('.');
  return `${neg ? '-' : ''}${groupThousands(int)},${frac.padEnd(2, '0').slice(0, 2)}\u00a0€`;
}

/** An exact amount as an input shows it: "1234.50" becomes "1234,50" in Greek and Russian. */
export const amountForInput = (s: string, culture: string) => (culture === 'en' ? s : s.replace('.', ','));

/** An area in the reader's unit (m², τ.μ., м²: the text `common.areaUnit`), with its decimals (85,5), not rounded. */
export const formatArea = (n: number | null | undefined) => (n == null ? '' : `${formatTypedNumber(Math.round(n * 100) / 100)}\u00a0${i18n.t('common.areaUnit')}`);

/**
 * Distances of 1000 m or more in km to a tenth, a whole number of km without its ",0" (60 χλμ.,
 * 1,5 χλμ.), in the reader's units (m / μ. / м, km / χλμ. / км).
 */
export const formatDistance = (m: number | null | undefined) => {
  if (m == null) return '';
  if (m < 1000) return `${group(m, 0)}\u00a0${i18n.t('common.unitMetre')}`;
  const km = Math.round(m / 100) / 10;
  return `${group(km, Number.isInteger(km) ? 0 : 1)}\u00a0${i18n.t('common.unitKm')}`;
};

/** API date-times are local (agency time zone) YYYY-MM-DDTHH:mm:ss: parse without shifting. */
function parseLocal(s: string): Date {
  const [d, t = '00:00:00'] = s.split('T');
  const [y, mo, da] = d!.split('-').map(Number);
  const [h, mi, se] = t.split(':').map(Number);
  return new Date(y!, (mo ?? 1) - 1, da ?? 1, h ?? 0, mi ?? 0, se ?? 0);
}


/** Formatters are costly to create (a list formats hundreds of dates): one per language and style. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(style: 'date' | 'dateTime' | 'long'): Intl.DateTimeFormat {
  const locale = INTL_LOCALE[currentCulture()];
  const key = `${locale}|${style}`;
  let f = formatters.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      style === 'date'
        ? { day: '2-digit', month: '2-digit', year: 'numeric' }
        : style === 'dateTime'
          ? { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }
          : { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' };
    f = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, f);
  }
  return f;
}

/**
 * Lists show many dates, and a phone spends tens of milliseconds creating the first Intl formatter
 * of a language (loading its locale data) while the first screen renders. The short styles are
 * fixed patterns (the ones Intl gives for en-GB, el-GR and ru-RU: 05/01/2026, 05.01.2026 in
 * Russian, time after a comma on the 24-hour clock), so they are cut out of the API's text.
 */
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/;
function shortDate(s: string, withTime: boolean): string | null {
  const m = LOCAL.exec(s);
  if (!m) return null;
  const sep = currentCulture() === 'ru' ? '.' : '/';
  const date = `${m[3]}${sep}${m[2]}${sep}${m[1]}`;
  return withTime ? `${date}, ${m[4] ?? '00'}:${m[5] ?? '00'}` : date;
}

export const formatDate = (s: string | null | undefined) => (s ? (shortDate(s, false) ?? formatter('date').format(parseLocal(s))) : '');
export const formatDateTime = (s: string | null | undefined) => (s ? (shortDate(s, true) ?? formatter('dateTime').format(parseLocal(s))) : '');
/**
 * The long style ("Thursday, 26 November 2026", "Πέμπτη 26 Νοεμβρίου 2026", "четверг, 26 ноября
 * 2026 г."): what Intl gives for en-GB, el-GR and ru-RU, spelled from these names. The home page
 * says today's date on every first visit, and the first long-style Intl formatter of a language
 * cost a phone 70-80 ms (its locale data), a quarter of a second at a phone's speed.
 */
const LONG_NAMES: Record<string, { days: string[]; months: string[]; format: (day: string, d: number, month: string, y: number) => string }> = {
  en: {
    days: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
    months: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
    format: (day, d, month, y) => `${day}, ${d} ${month} ${y}`,
  },
  el: {
    days: ['Κυριακή', 'Δευτέρα', 'Τρίτη', 'Τετάρτη', 'Πέμπτη', 'Παρασκευή', 'Σάββατο'],
    months: ['Ιανουαρίου', 'Φεβρουαρίου', 'Μαρτίου', 'Απριλίου', 'Μαΐου', 'Ιουνίου', 'Ιουλίου', 'Αυγούστου', 'Σεπτεμβρίου', 'Οκτωβρίου', 'Νοεμβρίου', 'Δεκεμβρίου'],
    format: (day, d, month, y) => `${day} ${d} ${month} ${y}`,
  },
  ru: {
    days: ['воскресенье', 'понедельник', 'вторник', 'среда', 'четверг', 'пятница', 'суббота'],
    months: ['января', 'февраля', 'марта', 'апреля', 'мая', 'июня', 'июля', 'августа', 'сентября', 'октября', 'ноября', 'декабря'],
    format: (day, d, month, y) => `${day}, ${d} ${month} ${y} г.`,
  },
};
export const formatLongDate = (d: Date) => {
  const names = LONG_NAMES[currentCulture()];
  return names ? names.format(names.days[d.getDay()]!, d.getDate(), names.months[d.getMonth()]!, d.getFullYear()) : formatter('long').format(d);
};

/**
 * A date that stands as a heading (a calendar's month or day, a day of its agenda): Russian writes
 * its month and weekday names in small letters ("декабрь 2026 г.", "вторник, 1 декабря"), and a
 * heading starts with a capital. English and Greek names are capitalised already.
 */
export const asHeading = (text: string) => text.charAt(0).toLocaleUpperCase(INTL_LOCALE[currentCulture()]) + text.slice(1);

/** How date inputs show a date: as the lists do (Russian with dots). */
export const dateInputFormat = () => (currentCulture() === 'ru' ? 'DD.MM.YYYY' : 'DD/MM/YYYY');
export const dateTimeInputFormat = () => `${dateInputFormat()} HH:mm`;

const pad2 = (n: number) => String(n).padStart(2, '0');
/** A day as the API writes dates (YYYY-MM-DD), on the reader's clock. */
export const isoDay = (d: Date) => `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;

/** A file's size as people read it: 840 kB, 8.2 MB, 1.3 GB (the culture's digits and unit names). */
export function formatSize(bytes: number): string {
  const locale = INTL_LOCALE[currentCulture()];
  const [value, unit] = bytes >= 1e9 ? [bytes / 1e9, 'gigabyte'] : bytes >= 1e6 ? [bytes / 1e6, 'megabyte'] : [Math.max(bytes, 1000) / 1e3, 'kilobyte'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: value < 10 ? 1 : 0 }).format(value);
}
