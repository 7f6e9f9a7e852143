/**
 * What the enquiry parsers share (decision 082): a portal's notification mail as the parsers read it,
 * what they answer, and the small readers of "Label: value" lines. The labels most portals share are
 * here (COMMON_LABELS); each portal's own labels and markers live in its own module (spitogatos.ts,
 * xe.ts, indomio.ts).
 */

/** The portals whose enquiry mails become leads; the key is also the lead source's stable key. */
export const ENQUIRY_SOURCES = ['spitogatos', 'xe', 'indomio'] as const;
export type TEnquirySource = (typeof ENQUIRY_SOURCES)[number];

/** Each portal's mail domains: its notifications come from these (or their subdomains), signed by them. */
export const PORTAL_DOMAINS: Record<TEnquirySource, readonly string[]> = {
  spitogatos: ['spitogatos.gr', 'spitogatos.com'],
  xe: ['xe.gr'],
  indomio: ['indomio.gr', 'indomio.com'],
};

/** One enquiry read from a portal's mail. */
export type TPortalEnquiry = {
  source: TEnquirySource;
  /** The portal's own number of the listing, when the mail gives it. */
  portalRef: string | null;
  /** Our reference number of the property (the code the agency gave the portal), when the mail gives it. */
  propertyRef: number | null;
  name: string;
  phone: string | null;
  email: string | null;
  message: string;
};

/** A synced message as the parsers see it: the sender's address, the subject and the plain text. */
export type TEnquiryMail = { from: string | null; subject: string; text: string };

export type TEnquiryParser = (mail: TEnquiryMail) => TPortalEnquiry | undefined;

/** Lower case without accents, so "Τηλέφωνο", "ΤΗΛΕΦΩΝΟ" and "τηλεφωνο" read alike. */
export const plain = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The sender's domain is the portal's (or one of its subdomains: mail.spitogatos.gr). */
export function fromDomain(from: string | null, domains: readonly string[]): boolean {
  const domain = from?.toLowerCase().split('@')[1]?.trim();
  return !!domain && domains.some((d) => domain === d || domain.endsWith(`.${d}`));
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * The text of a mail sent as HTML only (a portal's template): one line per paragraph, line break,
 * table row or cell, tags dropped, entities read. Enough to read "Label: value" lines; not a renderer.
 */
export function textOfHtml(html: string): string {
  return html
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<br\s*\/?>|<\/(p|div|tr|td|th|li|h[1-6]|table)\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === '#') {
        const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1));
        return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    });
}

/** The text's lines, trimmed (a quoted-printable or HTML-made text may carry spaces at either end). */
export const linesOf = (text: string) => text.replace(/\r\n?/g, '\n').split('\n').map((l) => l.replace(/\u00a0/g, ' ').trim());

/** Where a line starts with one of the labels followed by ":": the rest of the line, else undefined. */
function afterLabel(line: string, labels: readonly string[]): string | undefined {
  const nfc = line.normalize('NFC');
  for (const label of labels) {
    if (plain(nfc.slice(0, label.length)) !== plain(label)) continue;
    const rest = nfc.slice(label.length).trimStart();
    // The label must be the whole label ("Email:", not "Email address of the agent:").
    if (rest.startsWith(':')) return rest.slice(1).trim();
  }
  return undefined;
}

/** The value of the first "Label: value" line with one of the labels; null when absent or empty. */
export function field(lines: readonly string[], labels: readonly string[]): string | null {
  for (const line of lines) {
    const v = afterLabel(line, labels);
    if (v !== undefined) return v || null;
  }
  return null;
}

/**
 * A text of several lines: from the line of one of the labels (its rest, if any) down to the first
 * line that one of `stops` matches, or the end. Blank lines at either end are dropped.
 */
export function block(lines: readonly string[], labels: readonly string[], stops: readonly RegExp[]): string | null {
  const at = lines.findIndex((l) => afterLabel(l, labels) !== undefined);
  if (at < 0) return null;
  const out = [afterLabel(lines[at]!, labels)!];
  for (const line of lines.slice(at + 1)) {
    if (stops.some((s) => s.test(plain(line)))) break;
    out.push(line);
  }
  const text = out.join('\n').trim();
  return text || null;
}

/** A line that ends a notification's message: a signature or separator line. */
export const SEPARATOR = /^(--|—|[—–_=-]{3,})\s*$/;

/** An e-mail address, alone or as "Name <address>"; null for anything else. */
export function emailOf(v: string | null): string | null {
  if (!v) return null;
  const inner = /<([^<>\s]+)>/.exec(v)?.[1] ?? v.trim();
  return /^[^\s@<>(),;:]+@[^\s@<>(),;:]+\.[^\s@<>(),;:]{2,}$/.test(inner) && inner.length <= 254 ? inner : null;
}

/** A phone number as typed (digits, spaces, + ( ) . / -, at least 7 digits); null for anything else. */
export function phoneOf(v: string | null): string | null {
  if (!v) return null;
  const s = v.trim();
  if (!/^[+\d\s()./-]{7,40}$/.test(s)) return null;
  return s.replace(/\D/g, '').length >= 7 ? s.replace(/\s+/g, ' ') : null;
}

/** Our reference number in a code as the agency typed it on the portal ("0042", "#0042", "ΚΩΔ. 42"): the one number in it. */
export function referenceOf(v: string | null): number | null {
  if (!v) return null;
  const numbers = v.match(/\d+/g) ?? [];
  if (numbers.length !== 1 || numbers[0]!.length > 9) return null;
  const n = Number(numbers[0]);
  return n > 0 ? n : null;
}

/** A portal's listing number ("1117534392"): digits and letters only, else null. */
export const portalRefOf = (v: string | null): string | null => (v && /^[\p{L}\p{N}-]{1,40}$/u.test(v.trim()) ? v.trim() : null);

/** The labels of one portal's mail, in Greek and English. */
export type TPortalLabels = {
  portalRef: readonly string[];
  propertyRef: readonly string[];
  name: readonly string[];
  phone: readonly string[];
  email: readonly string[];
  message: readonly string[];
  /** Lines (in plain(): lower case, no accents) that end the message. */
  stops: readonly RegExp[];
};

/**
 * Reads the fields of a portal's mail once the portal's parser has recognised it (sender and
 * marker). Nothing is guessed: a name is required, and a phone or an e-mail; else undefined.
 */
export function readEnquiry(source: TEnquirySource, text: string, labels: TPortalLabels): TPortalEnquiry | undefined {
  const lines = linesOf(text);
  const name = field(lines, labels.name);
  const phone = phoneOf(field(lines, labels.phone));
  const email = emailOf(field(lines, labels.email));
  if (!name || name.length > 200 || (!phone && !email)) return undefined;
  return {
    source,
    portalRef: portalRefOf(field(lines, labels.portalRef)),
    propertyRef: referenceOf(field(lines, labels.propertyRef)),
    name,
    phone,
    email,
    message: (block(lines, labels.message, [SEPARATOR, ...labels.stops]) ?? '').slice(0, 10000),
  };
}

/** The labels most portals' mails share; a portal names only those it words otherwise. */
const COMMON_LABELS = {
  name: ['Όνομα', 'Name'],
  phone: ['Τηλέφωνο', 'Phone'],
  email: ['Email', 'E-mail'],
  message: ['Μήνυμα', 'Message'],
} satisfies Partial<TPortalLabels>;

/**
 * A portal's parser: its mail is recognised by the sender's domain and a subject it sends (either
 * language, compared in plain()), then read by its labels (readEnquiry): the shared ones, with the
 * portal's own in their place where it words them otherwise.
 */

export function enquiryParser(
  source: TEnquirySource,
  subjects: readonly string[],
  own: Omit<TPortalLabels, keyof typeof COMMON_LABELS> & Partial<TPortalLabels>,
): TEnquiryParser {
  const labels: TPortalLabels = { ...COMMON_LABELS, ...own };
  return (mail) => {
    if (!fromDomain(mail.from, PORTAL_DOMAINS[source])) return undefined;
    const subject = plain(mail.subject);
    if (!subjects.some((s) => subject.includes(s))) return undefined;
    return readEnquiry(source, mail.text, labels);
  };
}
