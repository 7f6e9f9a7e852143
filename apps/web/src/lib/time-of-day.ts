/**
 * Times of day as the agency writes them: 24-hour "HH:mm" (the format the API takes, TIME_OF_DAY
 * in the contract). What people type is read leniently and written back in that one form.
 */

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A 12-hour suffix: "am"/"pm" (also "a.m.", "p"), the Greek "π.μ."/"μ.μ." ("πμ", "μμ"), and the
 * Russian parts of the day: "утра" and "ночи" before noon, "дня" and "вечера" after ("8 вечера" is
 * 20:00, "12 ночи" midnight, "12 дня" noon), with "дп"/"пп" (до/после полудня).
 */
const MERIDIEM = /^(.*?)\s*(a\.?\s*m\.?|p\.?\s*m\.?|a|p|π\.?\s*μ\.?|μ\.?\s*μ\.?|утра|ут\.|ночи|дня|вечера|веч\.?|д\.?\s*п\.?|п\.?\s*п\.?)$/i;
/** The suffixes of the hours before noon. */
const BEFORE_NOON = /^(a|π|ут|ноч|д\.?\s*п)/;

/**
 * The text of a time input as "HH:mm"; "" for an empty text; null for a text that is not a time of day.
 *
 * - digits alone: "9" and "09" are hours (09:00); "930" is 09:30; "2105" is 21:05;
 * - hours and minutes with a separator, ":" "." "," "h" or a space: "9:30", "09.30", "9h30", "21 05";
 *   the minutes then take two digits ("9:3" is refused rather than guessed);
 * - an hour with the separator alone: "9:" and "9h" are 09:00;
 * - a 12-hour time with am/pm (or π.μ./μ.μ.), as an English-locale browser shows it: "8:19 PM" is 20:19;
 *   in Russian with the part of the day: "8 вечера" is 20:00, "9:30 утра" 09:30; "9ч30" is 09:30;
 * - hours 0-23, minutes 0-59 ("24:00" is refused, as the server refuses it).
 */
export function parseTimeOfDay(input: string): string | null {
  let text = input.trim().toLowerCase();
  if (!text) return '';
  let meridiem: 'am' | 'pm' | null = null;
  const m12 = MERIDIEM.exec(text);
  if (m12 && /\d$/.test(m12[1]!)) {
    meridiem = BEFORE_NOON.test(m12[2]!) ? 'am' : 'pm';
    text = m12[1]!.trim();
  }
  let hours: number;
  let minutes: number;
  const digits = /^(\d{1,4})$/.exec(text);
  const split = /^(\d{1,2})(?:\s*[:.,hч]\s*|\s+)(\d{2})(?:\s*мин\.?)?$/.exec(text);
  const hourOnly = /^(\d{1,2})\s*[:.,hч]$/.exec(text);
  if (digits) {
    const d = digits[1]!;
    hours = Number(d.length <= 2 ? d : d.slice(0, d.length - 2));
    minutes = d.length <= 2 ? 0 : Number(d.slice(-2));
  } else if (split) {
    hours = Number(split[1]);
    minutes = Number(split[2]);
  } else if (hourOnly) {
    hours = Number(hourOnly[1]);
    minutes = 0;
  } else return null;
  if (meridiem) {
    if (hours < 1 || hours > 12) return null;
    hours = (hours % 12) + (meridiem === 'pm' ? 12 : 0);
  }
  if (hours > 23 || minutes > 59) return null;
  return `${pad(hours)}:${pad(minutes)}`;
}

/**
 * A time moved by `delta` hours or minutes (the arrow keys), the other part left as it is; each
 * part wraps round on its own, as the browser's time input does (23 → 00, 59 → 00).
 */
export function stepTimeOfDay(time: string, part: 'hours' | 'minutes', delta: number): string {
  const [h = 0, m = 0] = (parseTimeOfDay(time) || '00:00').split(':').map(Number);
  const wrap = (v: number, n: number) => ((v % n) + n) % n;
  return part === 'hours' ? `${pad(wrap(h + delta, 24))}:${pad(m)}` : `${pad(h)}:${pad(wrap(m + delta, 60))}`;
}
