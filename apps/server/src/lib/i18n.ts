import { cultureOf, type TCulture } from '@crm/contract';
import type { Db } from '../db/client.ts';
import { localization } from '../db/schema/index.ts';
import { officesPluralsFirst } from './plural-texts.ts';

type Texts = Record<TCulture, Map<string, string>>;

/** A text of the reader's language by its key, its {placeholders} filled (the request's `t`). */
export type T = (key: string, params?: Record<string, string | number>) => string;

const PLURAL_RULES = new Map<TCulture, Intl.PluralRules>();
const plurals = (culture: TCulture) => {
  let rules = PLURAL_RULES.get(culture);
  if (!rules) PLURAL_RULES.set(culture, (rules = new Intl.PluralRules(culture)));
  return rules;
};

/** Notified (pg_notify) in the transaction that changes the texts: every instance reads its copy again. */
export const TEXTS_CHANNEL = 'crm_texts';

/** The server's copy of the interface texts, for mails and error answers. */
export class Translator {
  private texts: Texts = { en: new Map(), el: new Map(), ru: new Map() };
  private loads = 0;

  async load(db: Db) {
    const rows = officesPluralsFirst(await db.select().from(localization));
    const next: Texts = { en: new Map(), el: new Map(), ru: new Map() };
    for (const r of rows) next[cultureOf(r.culture === 'en' ? 'en-UK' : r.culture)].set(r.key, r.text);
    this.texts = next;
    this.loads++;
  }

  /**
   * Which copy of the texts this is (one more at each load): a kept answer worded with them keys by
   * it, so one made between a change of the texts and this copy's reload is not served after it.
   */
  get generation(): number {
    return this.loads;
  }

  has(key: string) {
    return this.texts.en.has(key) || this.texts.en.has(`${key}_other`);
  }

  /**
   * Text of `key` in the culture, falling back to English, then to the key itself. With a number
   * `count`, the plural form as i18next picks it on the web (`key_one`, `key_few`, `key_many`,
   * `key_other` by the language's plural rules), else the plain key.
   */
  t(culture: TCulture, key: string, params: Record<string, string | number> = {}): string {
    const pick = (c: TCulture) => {
      const texts = this.texts[c];
      if (typeof params.count !== 'number') return texts.get(key);
      return texts.get(`${key}_${plurals(c).select(params.count)}`) ?? texts.get(`${key}_other`) ?? texts.get(key);
    };
    const raw = pick(culture) ?? pick('en') ?? key;
    return raw.replace(/\{\{?\s*(\w+)\s*\}?\}/g, (m, name: string) => (name in params ? asWritten(culture, name, params[name]!) : m));
  }
}

/**
 * A limit (`min`, `max`) as the screens write numbers: a no-break space between thousands and a
 * decimal comma ("999 999 999 999,99", not "999999999999.99").
 */
export function limitAsWritten(n: number): string {
  const [int = '0', frac] = String(Math.abs(n)).split('.');
  return `${n < 0 ? '-' : ''}${int.replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0')}${frac ? `,${frac}` : ''}`;
}

const asWritten = (culture: TCulture, name: string, value: string | number) =>
  typeof value === 'number' && (name === 'min' || name === 'max') && Number.isFinite(value) ? limitAsWritten(value) : dayAsWritten(culture, String(value));

/**
 * A day given as dd/mm/yyyy, or a day and time as "dd/mm/yyyy, HH:MM" (how alerts and mails keep
 * their dates: a rent payment day, a to-do's due time), as the reader writes it: Russian writes
 * dd.mm.yyyy, as its screens do; English (en-GB) and Greek keep the slashes. Alerts made before keep
 * working: they are worded when read.
 */
const dayAsWritten = (culture: TCulture, value: string) =>
  culture === 'ru' && /^\d{2}\/\d{2}\/\d{4}(?:, \d{2}:\d{2})?$/.test(value) ? value.replaceAll('/', '.') : value;

/** Picks the culture from an Accept-Language header ("el", "ru-RU", "en-UK"...). */
export function cultureFromHeader(header: string | undefined): TCulture | undefined {
  if (!header) return undefined;
  for (const part of header.split(',')) {
    const tag = part.split(';')[0]!.trim().toLowerCase();
    if (tag.startsWith('el')) return 'el';
    if (tag.startsWith('ru')) return 'ru';
    if (tag.startsWith('en')) return 'en';
  }
  return undefined;
}
