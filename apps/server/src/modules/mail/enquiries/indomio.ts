import { enquiryParser } from './read.ts';

/**
 * Indomio.gr's "new contact request" mail (decision 082: a format written from how such
 * notifications read, not taken from a real one; to be checked against the first real mail).
 */
export const parseIndomio = enquiryParser('indomio', ['νεο αιτημα επικοινωνιας', 'new contact request'], {
  portalRef: ['Κωδικός Indomio', 'Indomio code'],
  propertyRef: ['Αναφορά', 'Reference'],
  stops: [/^indomio/, /^λαβατε αυτο το μηνυμα/, /^you received this/],
});
