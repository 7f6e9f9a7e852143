import { fromDomain, plain, PORTAL_DOMAINS, readEnquiry, type TEnquiryMail, type TPortalEnquiry } from './read.ts';

/**
 * Indomio.gr's "new contact request" mail (decision 082: a format written from how such
 * notifications read, not taken from a real one; to be checked against the first real mail).
 */
const SUBJECTS = ['νεο αιτημα επικοινωνιας', 'new contact request'];

export function parseIndomio(mail: TEnquiryMail): TPortalEnquiry | undefined {
  if (!fromDomain(mail.from, PORTAL_DOMAINS.indomio)) return undefined;
  const subject = plain(mail.subject);
  if (!SUBJECTS.some((s) => subject.includes(s))) return undefined;
  return readEnquiry('indomio', mail.text, {
    portalRef: ['Κωδικός Indomio', 'Indomio code'],
    propertyRef: ['Αναφορά', 'Reference'],
    name: ['Όνομα', 'Name'],
    phone: ['Τηλέφωνο', 'Phone'],
    email: ['Email', 'E-mail'],
    message: ['Μήνυμα', 'Message'],
    stops: [/^indomio/, /^λαβατε αυτο το μηνυμα/, /^you received this/],
  });
}
