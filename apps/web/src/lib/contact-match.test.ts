import { describe, expect, it } from 'vitest';
import { completeContact, sameContact } from './contact-match.ts';

describe('a phone or e-mail shared with another account', () => {
  it('is one phone however it is written, with or without the country code', () => {
    expect(sameContact('phone', '6941234567', 'Παπαδόπουλος Γιώργος (+30 694 123 4567)')).toBe(true);
    expect(sameContact('phone', '+30 (694) 123-45-67', 'Παπαδόπουλος Γιώργος (6941234567)')).toBe(true);
    expect(sameContact('phone', '0030 2310 555 123', 'Νικολάου Α.Ε. (2310555123)')).toBe(true);
  });

  it('is not a number that only contains the digits typed, nor a name without a contact shown', () => {
    expect(sameContact('phone', '6941234567', 'Παπαδόπουλος Γιώργος (+30 694 123 4568)')).toBe(false);
    expect(sameContact('phone', '94123456', 'Παπαδόπουλος Γιώργος (+30 694 123 4567)')).toBe(false);
    expect(sameContact('phone', '6941234567', 'Παπαδόπουλος Γιώργος')).toBe(false);
  });

  it('is the same e-mail, letter case aside, and not one that merely contains it', () => {
    expect(sameContact('email', 'Maria@Example.gr', 'Παπαδοπούλου Μαρία (maria@example.gr)')).toBe(true);
    expect(sameContact('email', 'maria@example.gr', 'Παπαδοπούλου Μαρία (anna.maria@example.gr)')).toBe(false);
  });

  it('is looked for only once the phone or e-mail is whole', () => {
    expect(completeContact('phone', '694 12')).toBe(false);
    expect(completeContact('phone', '694 123 45')).toBe(true);
    expect(completeContact('email', 'maria@')).toBe(false);
    expect(completeContact('email', 'maria@example.gr')).toBe(true);
  });
});
