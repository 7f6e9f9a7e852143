import { describe, expect, it } from 'vitest';
import { normalisePhone, signatureContact } from './mail-signature.ts';

describe('the contact found in a mail\'s signature', () => {
  it('Greek: the sender\'s name, a mobile written at home; the fax and the tax number left out', () => {
    const text = [
      'Καλησπέρα σας,',
      '',
      'θα ήθελα να δω το διαμέρισμα στην Καλαμαριά το Σάββατο.',
      '',
      'Με εκτίμηση,',
      'Γιώργος Παπαδόπουλος',
      'Κιν.: 694 123 4567',
      'Φαξ: 2310 123456',
      'ΑΦΜ 123456789',
    ].join('\n');
    expect(signatureContact({ fromName: 'Γιώργος Παπαδόπουλος', text })).toEqual({ name: 'Γιώργος Παπαδόπουλος', phone: '+306941234567' });
  });

  it('Greek: a landline with +30 and dots; without a display name, the line under the closing', () => {
    const text = 'Καλημέρα,\nστείλτε μου το συμβόλαιο.\n\nΕυχαριστώ,\nΜαρία Οικονόμου\nΤηλ. +30 210.123.4567\n';
    expect(signatureContact({ fromName: '', text })).toEqual({ name: 'Μαρία Οικονόμου', phone: '+302101234567' });
  });

  it('English: an international number; the quoted original below (with its own phone) is not read', () => {
    const text = [
      'Hi,',
      'Friday at 11 works for me.',
      '',
      'Best regards,',
      'John Smith',
      'Mobile: +44 (0)7700 900123',
      '',
      'On Mon, 3 Mar 2025 at 10:00, Agency <info@agency.test> wrote:',
      '> Call us on 2101234567',
    ].join('\n');
    expect(signatureContact({ fromName: '"John Smith"', text })).toEqual({ name: 'John Smith', phone: '+4407700900123' });
  });

  it('Russian: the name under "С уважением", a number with 00 and dashes', () => {
    const text = 'Добрый день!\nИнтересует квартира, ref 0123.\n\nС уважением,\nИван Петров\nтел.: 007-916-123-45-67\n';
    expect(signatureContact({ fromName: 'ivan@example.ru', text })).toEqual({ name: 'Иван Петров', phone: '+79161234567' });
  });

  it('nothing guessed: no number, no name to find; dates, prices and references are no phones', () => {
    const text = 'Hello,\nthe price of 250.000 € on 12/03/2025 for ref 01234 is fine.\nThanks';
    expect(signatureContact({ fromName: null, text })).toEqual({ name: null, phone: null });
    expect(normalisePhone('12345678')).toBeNull();
    expect(normalisePhone('210 1234567')).toBe('+302101234567');
    expect(normalisePhone('+30 694 123 4567')).toBe('+306941234567');
  });
});
