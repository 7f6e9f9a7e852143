/** Whether a phone or e-mail typed on an account is the one another account has (the account editor's hint). */

/** A phone is compared by its last digits: "+30 694 123 4567" and "6941234567" are one number. */
const PHONE_DIGITS = 10;
const MIN_PHONE_DIGITS = 8;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

const digits = (s: string) => s.replace(/\D/g, '');

/** The phone or e-mail a search hit shows in brackets after the name ("Παπαδόπουλος Γιώργος (+30 694 123 4567)"). */
function shownContact(description: string): string | null {
  return /\(([^()]*)\)\s*$/.exec(description)?.[1] ?? null;
}

/** Whether a hit's shown contact is the very phone or e-mail typed (not merely one that contains it). */
export function sameContact(kind: 'phone' | 'email', typed: string, description: string): boolean {
  const shown = shownContact(description);
  if (!shown) return false;
  if (kind === 'email') return shown.trim().toLowerCase() === typed.trim().toLowerCase();
  const a = digits(shown);
  const b = digits(typed);
  return a.length >= MIN_PHONE_DIGITS && b.length >= MIN_PHONE_DIGITS && a.slice(-PHONE_DIGITS) === b.slice(-PHONE_DIGITS);
}

/** Whether what is typed is a whole phone or e-mail yet (a fragment would find strangers). */
export function completeContact(kind: 'phone' | 'email', value: string): boolean {
  return kind === 'email' ? EMAIL.test(value.trim()) : digits(value).length >= MIN_PHONE_DIGITS;
}
