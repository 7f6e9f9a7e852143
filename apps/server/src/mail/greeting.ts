import type { TCulture } from '@crm/contract';
import type { T } from '../lib/i18n.ts';

/**
 * How a letter greets its reader, as a person writing it would: in Greek the vocative of the first
 * name with the gender's adjective ("Αγαπητέ Στέφανε", "Αγαπητή Μαρία"), in Russian the first name
 * and patronymic ("Уважаемый Иван Петрович"), in English "Dear Maria". The gender the account
 * states comes before the one a name suggests, and lets a Latin name be greeted so too ("Αγαπητή
 * Mary", "Уважаемый John"). A name that is unknown, or not in the language's script and of no stated
 * gender, gets a neutral polite greeting, never "Αγαπητέ/ή".
 */

export type TGender = 'male' | 'female';
export type TRecipient = {
  firstName?: string | null;
  lastName?: string | null;
  /** The patronymic of a Russian name (the account's middle name). */
  middleName?: string | null;
  /** The account's gender when it states one (it comes first); else it is told from the name. */
  gender?: TGender | null;
};

const GREEK = /[\u0370-\u03ff\u1f00-\u1fff]/;
const CYRILLIC = /[\u0400-\u04ff]/;
const LETTERS = /[\p{L}]/u;

/** The language a name's script suggests: Cyrillic is Russian, Greek is Greek, any other English. */
export function guessLanguage(name: string | null | undefined): TCulture {
  const s = name ?? '';
  const greek = [...s].filter((c) => GREEK.test(c)).length;
  const cyr = [...s].filter((c) => CYRILLIC.test(c)).length;
  if (cyr > 0 && cyr >= greek) return 'ru';
  if (greek > 0) return 'el';
  return 'en';
}

/** The first word of a first name ("Μαρία-Ελένη" keeps both, "Γιώργος Α." keeps Γιώργος). */
const firstWord = (s: string | null | undefined) => (s ?? '').trim().split(/\s+/)[0]?.replace(/[.,;:!]+$/, '') ?? '';

const isGreekWord = (s: string) => s.length > 1 && [...s].every((c) => GREEK.test(c) || c === '-') && LETTERS.test(s);
const isCyrillicWord = (s: string) => s.length > 1 && [...s].every((c) => CYRILLIC.test(c) || c === '-');
/** A name in Latin letters ("John", "Anne-Marie", "O'Brien", "José"). */
const isLatinWord = (s: string) => s.length > 1 && /^[\p{Script=Latin}'’-]+$/u.test(s) && LETTERS.test(s);

/** Greek male names that do not end as male names mostly do (-ος, -ης, -ας, -ής, -άς, -ων, -ών). */
const GREEK_MALE_OTHER = new Set(['εμμανουήλ', 'μιχαήλ', 'δανιήλ', 'ραφαήλ', 'ισραήλ', 'γαβριήλ', 'ιωσήφ', 'αβραάμ', 'ισαάκ', 'νώε', 'ιακώβ', 'σεραφείμ', 'ελισαίος']);
/** Greek female names ending as male ones do. */
const GREEK_FEMALE_OTHER = new Set<string>(['ελισάβετ', 'ελισσάβετ', 'ρουθ', 'εσθήρ']);

/** The gender a Greek first name tells; undefined when it tells none. */
export function greekGender(first: string): TGender | undefined {
  const w = first.toLowerCase();
  if (!isGreekWord(w)) return undefined;
  const last = w.split('-')[0]!;
  if (GREEK_MALE_OTHER.has(last)) return 'male';
  if (GREEK_FEMALE_OTHER.has(last)) return 'female';
  if (/(ος|ός|ης|ής|ας|άς|ων|ών|ούς|ους|έας|ιάς)$/.test(last)) return 'male';
  if (/(α|ά|η|ή|ω|ώ|ου|ού|ι|ί|ις|ίς|ύ|υ)$/.test(last)) return 'female';
  return undefined;
}

/** Names in -ος whose vocative is -ο though their stem has more than one syllable (as people say them). */
const VOCATIVE_O = new Set(['στέλιος', 'κυριάκος', 'αλέκος', 'μανούσος', 'μανόλος', 'θανάσος', 'στρατής', 'μιχάλος', 'σταμάτος', 'γιαννάκος', 'παναγιώτος', 'δημητράκος', 'κωστάκος', 'βαγγέλος', 'λευτέρος', 'αντωνάκος']);
/** Vocatives that no rule makes. */
const VOCATIVE_EXCEPTIONS: Record<string, string> = {};

const DIPHTHONGS = ['αι', 'ει', 'οι', 'ου', 'υι', 'αυ', 'ευ', 'ηυ', 'αί', 'εί', 'οί', 'ού', 'υί', 'αύ', 'εύ', 'ηύ'];
const VOWELS = 'αεηιουωάέήίόύώϊϋΐΰ';

/**
 * The syllables (vowel groups) of a Greek word: a diphthong is one; an ι or υ before another vowel
 * after a consonant glides ("Γιώργ" is one, as it is said).
 */
function vowelGroups(w: string): number {
  let n = 0;
  for (let i = 0; i < w.length; i++) {
    const c = w[i]!;
    if (!VOWELS.includes(c)) continue;
    n++;
    const two = w.slice(i, i + 2);
    if (DIPHTHONGS.includes(two)) {
      i++;
      continue;
    }
    // A glide: ι/ϊ not stressed, followed by a vowel ("γιώ", "για").
    if ((c === 'ι' || c === 'υ') && i + 1 < w.length && VOWELS.includes(w[i + 1]!) && (i === 0 || !VOWELS.includes(w[i - 1]!))) i++;
  }
  return n;
}

const keepCase = (model: string, lower: string) => (model[0] === model[0]!.toUpperCase() ? lower[0]!.toUpperCase() + lower.slice(1) : lower);

/**
 * The vocative of a Greek first name: -ος is -ε (Στέφανε, Κωνσταντίνε, Αλέξανδρε, Δημήτριε), but
 * -ο when the stem is one syllable (Γιώργο, Νίκο, Πέτρο, Μάρκο) and for the names people shorten
 * so (Κυριάκο); -ης, -ας, -ής, -άς lose the final ς (Γιάννη, Ηλία, Παντελή, Λουκά); other names,
 * all female ones among them, stay as they are (Μαρία, Ελένη, Εμμανουήλ).
 */
export function greekVocative(name: string): string {
  const w = name.trim();
  if (w.includes('-')) return w.split('-').map(greekVocative).join('-');
  const lower = w.toLowerCase();
  if (VOCATIVE_EXCEPTIONS[lower]) return keepCase(w, VOCATIVE_EXCEPTIONS[lower]);
  if (/ος$|ός$/.test(lower)) {
    const stem = w.slice(0, -2);
    const stressed = lower.endsWith('ός');
    if (stressed) return `${stem}έ`;
    if (VOCATIVE_O.has(lower) || vowelGroups(stem.toLowerCase()) === 1) return `${stem}ο`;
    return `${stem}ε`;
  }
  if (/(ης|ής|ας|άς)$/.test(lower)) return w.slice(0, -1);
  return w;
}

/** A Russian patronymic's gender (-ович/-евич/-ич, -овна/-евна/-ична/-инична). */
const russianGender = (middle: string): TGender | undefined => (/(ич)$/i.test(middle) ? 'male' : /(на)$/i.test(middle) ? 'female' : undefined);


/**
 * The greeting line of a letter to this person in this language (its words are the 'mail'
 * namespace's: mail.greet.male, .female, .named, .neutral).
 */
export function greetingLine(culture: TCulture, r: TRecipient | null | undefined, t: T): string {
  const first = firstWord(r?.firstName);
  // The gender the account states comes first; only without one is it told from the name.
  const stated = r?.gender ?? undefined;
  if (culture === 'el') {
    // A Greek name in its vocative; a Latin one ("Αγαπητή Mary") only when the account says whose it is.
    if (isLatinWord(first) && stated) return t(stated === 'male' ? 'mail.greet.male' : 'mail.greet.female', { name: first });
    const gender = isGreekWord(first) ? (stated ?? greekGender(first)) : undefined;
    if (!gender) return t('mail.greet.neutral');
    return gender === 'male' ? t('mail.greet.male', { name: greekVocative(first) }) : t('mail.greet.female', { name: first });
  }
  if (culture === 'ru') {
    const middle = firstWord(r?.middleName);
    const cyrillic = isCyrillicWord(first);
    const withPatronymic = cyrillic && isCyrillicWord(middle);
    const gender = stated ?? (withPatronymic ? russianGender(middle) : undefined);
    // "Уважаемый Иван Петрович", and with a stated gender "Уважаемая Мария" or "Уважаемый John".
    if (gender && (withPatronymic || ((cyrillic || isLatinWord(first)) && stated))) {
      return t(gender === 'male' ? 'mail.greet.male' : 'mail.greet.female', { name: withPatronymic ? `${first} ${middle}` : first });
    }
    return cyrillic ? t('mail.greet.named', { name: first }) : t('mail.greet.neutral');
  }
  return first && !isGreekWord(first) && !isCyrillicWord(first) ? t('mail.greet.named', { name: first }) : t('mail.greet.neutral');
}
