import { enquiryParser } from './read.ts';

/**
 * Spitogatos.gr's "new message about your listing" mail (decision 082: a format written from how
 * such notifications read, not taken from a real one; to be checked against the first real mail).
 */
export const parseSpitogatos = enquiryParser('spitogatos', ['νεο μηνυμα για την αγγελια σας', 'new message about your listing'], {
  portalRef: ['Κωδικός αγγελίας Spitogatos', 'Spitogatos listing ID'],
  propertyRef: ['Κωδικός ακινήτου (δικός σας)', 'Your property code'],
  name: ['Ονοματεπώνυμο', 'Full name'],
  stops: [/^απαντηστε απευθειας/, /^reply directly/],
});
