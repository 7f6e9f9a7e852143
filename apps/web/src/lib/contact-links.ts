/**
 * A phone as an account or a booking keeps it (free text: several written with ';', a name or a note
 * beside a number) in parts to tap: each part with its tel: address (digits and a leading +, as the
 * account pages dial), or none where the part holds too few digits to be a number.
 */
export function phoneLinks(text: string | null | undefined): { text: string; href: string | null }[] {
  return (text ?? '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((part) => {
      const digits = part.replace(/\D/g, '');
      const plus = part.startsWith('+') ? '+' : '';
      return { text: part, href: digits.length >= 5 ? `tel:${plus}${digits}` : null };
    });
}

/** A guest's e-mail's mailto: address, or null when it is empty. */
export const mailtoOf = (email: string | null | undefined) => (email?.trim() ? `mailto:${email.trim()}` : null);
