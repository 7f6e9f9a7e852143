/**
 * Where the words of a search lie in a text, compared as the server's searches compare them
 * (crm_search_norm, plainText): accents and case ignored, the final sigma as sigma. So a list can
 * mark what made a row match, in the text as it was typed ("ΣΚΟΤΕΙΝΟ" marks "σκοτεινό").
 */

/** One letter's search form (a few letters give two: "ß" lowercases to itself, "İ" to "i̇"). */
const plainLetter = (c: string) =>
  c
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ς/g, 'σ');

/** The text's search form, with where each of its letters came from in the text. */
function plainWithOrigins(text: string): { plain: string; from: number[] } {
  let plain = '';
  const from: number[] = [];
  let i = 0;
  for (const c of text) {
    const p = plainLetter(c);
    plain += p;
    for (let k = 0; k < p.length; k++) from.push(i);
    i += c.length;
  }
  from.push(i);
  return { plain, from };
}

/** The search's words in their search form: blanks split them, empty ones are none. */
export const searchWords = (search: string) => plainLetter(search).split(/\s+/).filter(Boolean);

/**
 * The stretches of `text` (start, end in UTF-16 units, sorted, not overlapping) where a word of
 * `search` is found; every place each word is found.
 */
export function findWords(text: string, search: string): [number, number][] {
  const words = searchWords(search);
  if (!words.length || !text) return [];
  const { plain, from } = plainWithOrigins(text);
  const found: [number, number][] = [];
  for (const w of words) {
    for (let at = plain.indexOf(w); at >= 0; at = plain.indexOf(w, at + 1)) found.push([from[at]!, from[at + w.length]!]);
  }
  found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: [number, number][] = [];
  for (const [s, e] of found) {
    const last = merged[merged.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  return merged;
}

/** A text cut in parts, the found ones marked. */
export type TextPart = { text: string; found: boolean };

/**
 * The text to show in one line for a search: from a little before the first word found (with "…"
 * where the start was left out), so the line that the screen cuts at its end still shows why the
 * row matched; split into parts with the found words marked.
 */
export function excerptParts(text: string, search: string, before = 12): TextPart[] {
  const found = findWords(text, search);
  if (!found.length) return [{ text, found: false }];
  let start = 0;
  if (found[0]![0] > before + 4) {
    // Back to the start of a word, at most `before` letters ahead of the find.
    start = found[0]![0] - before;
    const space = text.slice(start, found[0]![0]).search(/\s\S/);
    if (space >= 0) start += space + 1;
  }
  const parts: TextPart[] = start > 0 ? [{ text: '…', found: false }] : [];
  let at = start;
  for (const [s, e] of found) {
    if (s > at) parts.push({ text: text.slice(at, s), found: false });
    parts.push({ text: text.slice(s, e), found: true });
    at = e;
  }
  if (at < text.length) parts.push({ text: text.slice(at), found: false });
  return parts;
}
