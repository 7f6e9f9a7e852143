import { describe, expect, it } from 'vitest';
import { internationalPhone, messageLink } from './message-links.ts';

describe('a message to a client', () => {
  it('reads a phone as typed in international form', () => {
    expect(internationalPhone('+30 694 555 0101')).toBe('+306945550101');
    expect(internationalPhone('694-555-0101')).toBe('+306945550101');
    expect(internationalPhone('2310 555 111')).toBe('+302310555111');
    expect(internationalPhone('0044 20 7946 0958')).toBe('+442079460958');
    expect(internationalPhone('+7 (916) 123-45-67')).toBe('+79161234567');
    expect(internationalPhone('ext. 12')).toBeNull();
  });

  it('opens each app at the chat, with the text where the app takes one', () => {
    const text = 'Αγαπητή Ελένη,\nστις 28/11 & 11:30?';
    expect(messageLink('whatsapp', '+306945550101', text)).toBe(`https://wa.me/306945550101?text=${encodeURIComponent(text)}`);
    expect(messageLink('sms', '+306945550101', text)).toBe(`sms:+306945550101?&body=${encodeURIComponent(text)}`);
    expect(messageLink('viber', '+306945550101', text)).toBe('viber://chat?number=%2B306945550101');
    expect(decodeURIComponent(messageLink('sms', '+306945550101', text).split('body=')[1]!)).toBe(text);
  });
});
