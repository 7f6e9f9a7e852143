/** The apps a message to a client opens. */
export const MESSAGE_APPS = ['viber', 'whatsapp', 'sms'] as const;
export type TMessageApp = (typeof MESSAGE_APPS)[number];

/**
 * A phone as typed (spaces, dashes, brackets; `+30…`, `0030…`, or a Greek number without its code)
 * in international form, `+<digits>`; null where it holds too few digits to be a number.
 */
export function internationalPhone(text: string): string | null {
  const plus = text.trim().startsWith('+');
  let digits = text.replace(/\D/g, '');
  if (digits.length < 7) return null;
  if (!plus && digits.startsWith('00')) digits = digits.slice(2);
  // A Greek number (10 digits: landlines start with 2, mobiles with 69) without the country's code.
  else if (!plus && digits.length === 10 && /^(2|69)/.test(digits)) digits = `30${digits}`;
  return `+${digits}`;
}

/**
 * The address that opens an app at the client's chat with the text: WhatsApp's click-to-chat
 * (`https://wa.me/<digits>?text=`), the SMS app (`sms:+30…?&body=`, which iOS and Android both read),
 * Viber's chat (`viber://chat?number=%2B30…`: Viber takes no text, so the text is copied for pasting).
 */
export function messageLink(app: TMessageApp, phone: string, text: string): string {
  const digits = phone.replace(/\D/g, '');
  if (app === 'whatsapp') return `https://wa.me/${digits}?text=${encodeURIComponent(text)}`;
  if (app === 'sms') return `sms:+${digits}?&body=${encodeURIComponent(text)}`;
  return `viber://chat?number=${encodeURIComponent(`+${digits}`)}`;
}
