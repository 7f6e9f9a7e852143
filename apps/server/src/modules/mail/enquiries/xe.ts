import { fromDomain, plain, PORTAL_DOMAINS, readEnquiry, type TEnquiryMail, type TPortalEnquiry } from './read.ts';

/**
 * xe.gr's (Χρυσή Ευκαιρία) "interest in your ad" mail (decision 082: a format written from how such
 * notifications read, not taken from a real one; to be checked against the first real mail).
 */
const SUBJECTS = ['ενδιαφερον για την αγγελια σας', 'interest in your ad'];

export function parseXe(mail: TEnquiryMail): TPortalEnquiry | undefined {
  if (!fromDomain(mail.from, PORTAL_DOMAINS.xe)) return undefined;
  const subject = plain(mail.subject);
  if (!SUBJECTS.some((s) => subject.includes(s))) return undefined;
  return readEnquiry('xe', mail.text, {
    portalRef: ['Αριθμός αγγελίας xe', 'xe ad number'],
    propertyRef: ['Κωδικός αγγελίας γραφείου', 'Agency ad code'],
    name: ['Όνομα', 'Name'],
    phone: ['Τηλέφωνο επικοινωνίας', 'Contact phone'],
    email: ['E-mail', 'Email'],
    message: ['Σχόλια', 'Comments'],
    stops: [/^για να απαντησετε/, /^to answer/, /^xe\.gr/],
  });
}
