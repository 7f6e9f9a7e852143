/**
 * Who wrote a mail, as its signature says (issue 46, "new contact?"): the sender's display name (else
 * the line under a closing phrase), and a phone number from the last lines of the plain text, Greek
 * (landline 2…, mobile 69…, with or without +30/0030) or international (+ and a country code). The
 * quoted part of a reply and fax numbers are left out; nothing is guessed when nothing is found.
 */
export type TSignatureContact = { name: string | null; phone: string | null };

/** How many lines from the end (quoted lines and the blank ones not counted) the signature is looked for in. */
const LAST_LINES = 12;
const CLOSINGS = /^(?:(?:best|kind|warm)\s+regards|regards|thanks?|thank you|sincerely|cheers|με\s+εκτίμηση|με\s+φιλικούς\s+χαιρετισμούς|φιλικά|ευχαριστώ|χαιρετώ|με\s+τιμή|с\s+уважением|спасибо|всего\s+доброго|с\s+наилучшими\s+пожеланиями)[\s,.!]*$/iu;
const FAX = /(?<!\p{L})(?:fax|φαξ|τηλεομοιότυπο|факс)(?!\p{L})/iu;
const QUOTE_HEAD = /^(?:on .+ wrote:|στις .+ έγραψε:|.+ писал\(а\):|-----\s*original message\s*-----|-----\s*αρχικό μήνυμα\s*-----)$/iu;
const NAME = /^[\p{Lu}][\p{L}'’.-]+(?:\s+[\p{Lu}][\p{L}'’.-]+){1,3}$/u;
const PHONE = /(?<![\d+])(?:\+|00)?[\d(][\d\s().\-/]{7,20}\d(?!\d)/gu;

/** A number as dialled from abroad (+30…), or null when it is no phone number. */
export function normalisePhone(raw: string): string | null {
  const intl = /^\s*(\+|00)/.test(raw);
  const digits = raw.replace(/\D/g, '').replace(/^00/, '');
  if (intl) return digits.length >= 8 && digits.length <= 15 && !digits.startsWith('0') ? `+${digits}` : null;
  // A Greek number written at home: 10 digits, a landline (2…) or a mobile (69…).
  if (/^(?:2\d{9}|69\d{8})$/.test(digits)) return `+30${digits}`;
  return null;
}

const cleanName = (s: string | null | undefined) => {
  const n = (s ?? '').replace(/["'“”«»]/g, '').replace(/\s+via\s+.+$/i, '').replace(/\s+/g, ' ').trim();
  return n && !n.includes('@') ? n.slice(0, 100) : null;
};

/** The text's own lines (before any quoted original), without the blank ones. */
function ownLines(text: string): string[] {
  const lines: string[] = [];
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    if (QUOTE_HEAD.test(line)) break;
    if (line.startsWith('>') || line === '') continue;
    lines.push(line);
  }
  return lines;
}

export function signatureContact(m: { fromName: string | null | undefined; text: string }): TSignatureContact {
  const lines = ownLines(m.text).slice(-LAST_LINES);
  let phone: string | null = null;
  // The last number is the signature's; a fax line is never the phone.
  for (let i = lines.length - 1; i >= 0 && !phone; i--) {
    const line = lines[i]!;
    if (FAX.test(line)) continue;
    const found = [...line.matchAll(PHONE)].map((x) => normalisePhone(x[0])).filter((p): p is string => p !== null);
    if (found.length) phone = found[0]!;
  }
  let name = cleanName(m.fromName);
  if (!name) {
    const at = lines.findIndex((l) => CLOSINGS.test(l));
    const next = at >= 0 ? lines[at + 1] : undefined;
    if (next && NAME.test(next)) name = next;
  }
  return { name, phone };
}
