import { parseIndomio } from './indomio.ts';
import { parseSpitogatos } from './spitogatos.ts';
import { textOfHtml, type TEnquiryMail, type TEnquiryParser, type TPortalEnquiry } from './read.ts';
import { parseXe } from './xe.ts';

export { authResultsOf, checkSender, type TSenderCheck } from './sender-check.ts';
export { ENQUIRY_SOURCES, PORTAL_DOMAINS, type TEnquiryMail, type TEnquirySource, type TPortalEnquiry } from './read.ts';

/**
 * The portals' enquiry parsers (decision 082), each recognising its own mail by the sender's
 * domain and the subject it sends, and reading its own labels. The agency's own site is not among
 * them: its contact form makes the lead itself (publishing/public.service.ts, createEnquiry).
 */
const PARSERS: readonly TEnquiryParser[] = [parseSpitogatos, parseXe, parseIndomio];

/** The enquiry in a mail, or undefined: an unknown sender or format stays a plain thread, never guessed into fields. */
export function parseEnquiry(mail: TEnquiryMail & { html?: string | null }): TPortalEnquiry | undefined {
  // A mail sent as HTML only is read from its HTML's text.
  const read = { from: mail.from, subject: mail.subject, text: mail.text.trim() ? mail.text : mail.html ? textOfHtml(mail.html) : '' };
  for (const parse of PARSERS) {
    const found = parse(read);
    if (found) return found;
  }
  return undefined;
}
