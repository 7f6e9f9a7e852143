import type { ComboboxParsedItem, OptionsFilter } from '@mantine/core';
import type { TCulture } from '@crm/contract/constants';
import { INTL_LOCALE } from './i18n.ts';
import { searchWords } from './text-match.ts';

/** The countries and territories of ISO 3166-1 (alpha-2 codes). */
const ISO_3166 = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
  'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT ' +
  'MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
  'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
  'UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');
/** Offered first, in this order: the agency's own country and Cyprus, Russia, then Greece's neighbours. */
export const COUNTRIES_FIRST = ['GR', 'CY', 'RU', 'AL', 'MK', 'BG', 'TR'];
/** Then the rest of the European Union, alphabetically; then every other country, alphabetically. */
export const COUNTRIES_EU = ['AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE'];

const lists = new Map<TCulture, string[]>();

/**
 * The countries' names in the reader's language (Intl.DisplayNames): Greece, Cyprus, Russia and
 * the neighbours first, then the European Union, then the others, each group in the language's
 * alphabetical order. Made once per language, when first asked for (the first Intl.DisplayNames
 * costs a phone a good part of a second: never while a screen renders).
 */
export function countryNames(culture: TCulture): string[] {
  let list = lists.get(culture);
  if (list) return list;
  const locale = INTL_LOCALE[culture];
  const names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
  const collator = new Intl.Collator(locale);
  const name = (code: string) => names.of(code);
  const sorted = (codes: string[]) => codes.map(name).filter((n): n is string => !!n).sort(collator.compare);
  const first = new Set(COUNTRIES_FIRST);
  const eu = new Set(COUNTRIES_EU);
  list = [
    ...COUNTRIES_FIRST.map(name).filter((n): n is string => !!n),
    ...sorted(COUNTRIES_EU.filter((c) => !first.has(c))),
    ...sorted(ISO_3166.filter((c) => !first.has(c) && !eu.has(c))),
  ];
  lists.set(culture, list);
  return list;
}

/** A name's search form and its words' starts: accents and case ignored, the final sigma as sigma (lib/text-match). */
const plain = (s: string) => searchWords(s).join(' ');

/**
 * Finds a country by parts of its name, accents and case ignored ("ελλαδα" finds "Ελλάδα"): first
 * the names whose words begin with what was typed, in the list's order ("ger": Germany before
 * Algeria and Niger), then those that hold it inside a word.
 */
export const countryFilter: OptionsFilter = ({ options, search, limit }) => {
  const words = searchWords(search);
  const all = options as ComboboxParsedItem[];
  if (!words.length) return all.slice(0, limit);
  const starts: ComboboxParsedItem[] = [];
  const inside: ComboboxParsedItem[] = [];
  for (const o of all) {
    if (!('value' in o)) continue;
    const text = ` ${plain(o.label)}`;
    if (!words.every((w) => text.includes(w))) continue;
    (words.every((w) => text.includes(` ${w}`)) ? starts : inside).push(o);
  }
  return [...starts, ...inside].slice(0, limit);
};
