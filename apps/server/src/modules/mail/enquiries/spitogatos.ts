import { fromDomain, plain, PORTAL_DOMAINS, readEnquiry, type TEnquiryMail, type TPortalEnquiry } from './read.ts';

/**
 * Spitogatos.gr's "new message about your listing" mail (decision 082: a format written from how
 * such notifications read, not taken from a real one; to be checked against the first real mail).
 */
const SUBJECTS = ['νεο μηνυμα για την αγγελια σας', 'new message about your listing'];

export function parseSpitogatos(mail: TEnquiryMail): TPortalEnquiry | undefined {
  if (!fromDomain(mail.from, PORTAL_DOMAINS.spitogatos)) return undefined;
  const subject = plain(mail.subject);
  if (!SUBJECTS.some((s) => subject.includes(s))) return undefined;
  return readEnquiry('spitogatos', mail.text, {
    portalRef: ['Κωδικός αγγελίας Spitogatos', 'Spitogatos listing ID'],
    propertyRef: ['Κωδικός ακινήτου (δικός σας)', 'Your property code'],
    name: ['Ονοματεπώνυμο', 'Full name'],
    phone: ['Τηλέφωνο', 'Phone'],
    email: ['Email', 'E-mail'],
    message: ['Μήνυμα', 'Message'],
    stops: [/^απαντηστε απευθειας/, /^reply directly/],
  });
}
