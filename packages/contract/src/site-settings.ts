/** The checks of the agency's public-site details (no zod: the web's settings page imports them alone). */

/**
 * A phone number as agencies write it: "+30 2310 123 456", "2310 123456", "(2310) 123-456",
 * "+30 697 123 4567". Digits with spaces, dots, dashes, slashes or brackets between them, an
 * optional leading "+", 7 to 15 digits (the longest number there is).
 */
export function isAgencyPhone(s: string): boolean {
  if (!/^\+?[0-9()\-./ ]+$/.test(s) || !/^\+?[(]?[0-9]/.test(s) || !/[0-9)]$/.test(s)) return false;
  const digits = s.replace(/\D/g, '').length;
  return digits >= 7 && digits <= 15;
}
/** The `tel:` address of a phone number: its digits, with the "+" when it has one. */
export const phoneHref = (s: string) => `tel:${s.trim().startsWith('+') ? '+' : ''}${s.replace(/\D/g, '')}`;

/** The same test of an e-mail address as the public contact form's. */
export const SITE_EMAIL = /^[^\s@<>()[\]\\,;:"]{1,64}@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/;

/** An address that can be someone's sign-in: one @ with text on both sides, no spaces ("bad@@" is none). */
export const SIGN_IN_EMAIL = /^[^\s@]+@[^\s@]+$/;

/** The highest fee the settings take: 100 % of the price on a sale, 12 months' rent on a letting. */
export const SALE_FEE_MAX = 100;
export const RENT_FEE_MAX = 12;
/** A fee term as stored (numeric with 2 decimals): more than 0, at most `max`, in hundredths. */
export function isFeeNumber(n: number, max: number): boolean {
  return Number.isFinite(n) && n > 0 && n <= max && Math.abs(Math.round(n * 100) - n * 100) < 1e-6;
}

/** A web address: http(s), a host with a dot, no spaces ("www.agency.gr" is taken with https:// added by the server). */
export function isWebAddress(s: string): boolean {
  return /^(https?:\/\/)?[^\s/?#@]+\.[^\s/?#@]{2,}(\/[^\s]*)?$/i.test(s);
}
/** The CRM's public address, as PUBLIC_URL takes it: http:// or https://, a host, an optional path, no query. */
export function isPublicAddress(s: string): boolean {
  return /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(s);
}
/** Whether an address is this machine's (localhost, 127.x, ::1, 0.0.0.0): links to it work nowhere else. */
export function isLocalAddress(s: string): boolean {
  const m = /^https?:\/\/(\[[^\]]+\]|[^/:?#]+)/i.exec(s);
  const host = (m?.[1] ?? '').toLowerCase();
  return host === '' || host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '[::1]' || host === '0.0.0.0';
}
/** The largest logo taken (bytes). */
export const LOGO_MAX_BYTES = 5 * 1024 * 1024;
