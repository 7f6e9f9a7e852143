import { enquiryParser } from './read.ts';

/**
 * xe.gr's (Χρυσή Ευκαιρία) "interest in your ad" mail (decision 082: a format written from how such
 * notifications read, not taken from a real one; to be checked against the first real mail).
 */
export const parseXe = enquiryParser('xe', ['ενδιαφερον για την αγγελια σας', 'interest in your ad'], {
  portalRef: ['Αριθμός αγγελίας xe', 'xe ad number'],
  propertyRef: ['Κωδικός αγγελίας γραφείου', 'Agency ad code'],
  phone: ['Τηλέφωνο επικοινωνίας', 'Contact phone'],
  message: ['Σχόλια', 'Comments'],
  stops: [/^για να απαντησετε/, /^to answer/, /^xe\.gr/],
});
