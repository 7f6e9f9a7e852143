import { cultureOf, type TCulture } from '@crm/contract';
import type { Db } from '../db/client.ts';
import { localization } from '../db/schema/index.ts';

type Texts = Record<TCulture, Map<string, string>>;

/** The server's copy of the interface texts, for mails and error answers. */
export class Translator {
  private texts: Texts = { en: new Map(), el: new Map(), ru: new Map() };

  async load(db: Db) {
    const rows = await db.select().from(localization);
    const next: Texts = { en: new Map(), el: new Map(), ru: new Map() };
    for (const r of rows) next[cultureOf(r.culture === 'en' ? 'en-UK' : r.culture)].set(r.key, r.text);
    this.texts = next;
  }

  has(key: string) {
    return this.texts.en.has(key);
  }

  /** Text of `key` in the culture, falling back to English, then to the key itself. */
  t(culture: TCulture, key: string, params: Record<string, string | number> = {}): string {
    const raw = this.texts[culture].get(key) ?? this.texts.en.get(key) ?? key;
    return raw.replace(/\{\{?\s*(\w+)\s*\}?\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
  }
}

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
