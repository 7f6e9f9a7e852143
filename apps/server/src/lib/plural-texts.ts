const PLURAL_FORM = /^(.+)_(zero|one|two|few|many|other)$/;

/**
 * A text the office wrote is not overshadowed by a plural form it never saw: when a key gained its
 * plural forms (`deals.ui.more` → `deals.ui.more_one`, `_other`…) after the office had imported its
 * own `deals.ui.more`, i18next would pick the shipped plural form and the office's text would never
 * show. A plural form the office has not written itself gives way to its base text that the office
 * did write, in the same language (as it read before the plural forms came).
 */
export function officesPluralsFirst<T extends { key: string; culture: string; text: string; custom: boolean }>(rows: T[]): T[] {
  const written = new Map<string, string>();
  for (const r of rows) if (r.custom) written.set(`${r.culture}\u0000${r.key}`, r.text);
  if (written.size === 0) return rows;
  return rows.map((r) => {
    if (r.custom) return r;
    const base = PLURAL_FORM.exec(r.key)?.[1];
    const text = base === undefined ? undefined : written.get(`${r.culture}\u0000${base}`);
    return text === undefined ? r : { ...r, text };
  });
}
