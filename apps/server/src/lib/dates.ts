const formatters = new Map<string, Intl.DateTimeFormat>();

/** A moment as YYYY-MM-DDTHH:mm:ss in the agency's time zone (the API's date-time format). */
export function toLocalDateTime(d: Date | null | undefined, timeZone: string): string | null {
  if (!d) return null;
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('sv-SE', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f.format(d).replace(' ', 'T');
}
