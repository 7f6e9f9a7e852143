import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { parseEnquiry } from './index.ts';

/**
 * Each portal's enquiry parser on its sample mails (test/fixtures/enquiries, decision 082: written
 * as such notifications read, not copied from real portal mail), read from the raw mail through the
 * same MIME parser the sync uses: the fields exactly, and nothing at all for a portal's other mail,
 * for an unknown sender, or for an enquiry without a phone and an e-mail.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../../../../test/fixtures/enquiries');
const raw = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
async function read(source: string) {
  const p = await simpleParser(Buffer.from(source), { skipTextToHtml: true });
  return parseEnquiry({ from: p.from?.value[0]?.address ?? null, subject: p.subject ?? '', text: p.text ?? '', html: p.html || null });
}
const parse = (name: string) => read(raw(name));

describe('portal enquiry parsers', () => {
  it('Spitogatos: the Greek and the English mail', async () => {
    expect(await parse('spitogatos.el.eml')).toEqual({
      source: 'spitogatos',
      portalRef: '1117534392',
      propertyRef: 42,
      name: 'Γιώργος Παπαδάκης',
      phone: '694 412 3456',
      email: 'g.papadakis@example.gr',
      message: 'Καλησπέρα σας,\nθα ήθελα να δω το διαμέρισμα αυτή την εβδομάδα. Είναι ακόμα διαθέσιμο;',
    });
    expect(await parse('spitogatos.en.eml')).toEqual({
      source: 'spitogatos',
      portalRef: '1120098451',
      propertyRef: 42,
      name: 'James Whitfield',
      phone: '+44 7700 900123',
      email: 'j.whitfield@example.co.uk',
      message: 'Hello, we are looking for a summer house in Chalkidiki and would like to arrange a viewing in December.\nIs the price negotiable?',
    });
  });

  it('xe.gr: the Greek and the English mail (this one with a phone and no e-mail)', async () => {
    expect(await parse('xe.el.eml')).toEqual({
      source: 'xe',
      portalRef: '784512369',
      propertyRef: 42,
      name: 'Ελένη Κωνσταντινίδου',
      phone: '2310 412 233',
      email: 'e.konstantinidou@example.com',
      message: 'Μπορούμε να κανονίσουμε επίσκεψη το Σάββατο το πρωί;\nΕυχαριστώ.',
    });
    expect(await parse('xe.en.eml')).toEqual({
      source: 'xe',
      portalRef: '784512369',
      propertyRef: 42,
      name: 'Olga Smirnova',
      phone: '+7 916 555 12 34',
      email: null,
      message: 'Good afternoon, is the apartment suitable for a family with two children? Which school is nearby?',
    });
  });

  it('Indomio: the Greek mail sent as HTML only, and the English one with an empty phone', async () => {
    expect(await parse('indomio.el.eml')).toEqual({
      source: 'indomio',
      portalRef: '98765',
      propertyRef: 42,
      name: 'Νίκος Αλεξίου',
      phone: '697 000 1122',
      email: 'nikos.alexiou@example.gr',
      message: 'Ενδιαφέρομαι για αγορά με στεγαστικό δάνειο. Πότε μπορώ να το δω;',
    });
    expect(await parse('indomio.en.eml')).toEqual({
      source: 'indomio',
      portalRef: '98765',
      propertyRef: 42,
      name: 'Anna Becker',
      phone: null,
      email: 'anna.becker@example.de',
      message: 'Guten Tag, I would like more photos of the garden, please.',
    });
  });

  it("a portal's other mail (an expiry notice, a publication, weekly figures) is no enquiry, though it has the same labels", async () => {
    expect(await parse('spitogatos.other.eml')).toBeUndefined();
    expect(await parse('xe.other.eml')).toBeUndefined();
    expect(await parse('indomio.other.eml')).toBeUndefined();
  });

  it('an unknown sender gives nothing, even with the words of an enquiry; so does a portal address of another domain', async () => {
    expect(await parse('unknown.el.eml')).toBeUndefined();
    expect(await read(raw('spitogatos.el.eml').replace('noreply@spitogatos.gr', 'noreply@spitogatos.gr.example.com'))).toBeUndefined();
    expect(await read(raw('xe.el.eml').replace('no-reply@xe.gr', 'no-reply@notxe.gr'))).toBeUndefined();
    // A subdomain of the portal is the portal.
    expect((await read(raw('indomio.en.eml').replace('noreply@indomio.gr', 'alerts@mail.indomio.gr')))?.name).toBe('Anna Becker');
  });

  it('an enquiry with neither a phone nor an e-mail gives nothing; a bad e-mail or phone is not taken as one', async () => {
    const noContact = raw('spitogatos.en.eml').replace('Phone: +44 7700 900123', 'Phone:').replace('Email: j.whitfield@example.co.uk', 'Email:');
    expect(await read(noContact)).toBeUndefined();
    const bad = raw('spitogatos.en.eml').replace('Phone: +44 7700 900123', 'Phone: call me').replace('Email: j.whitfield@example.co.uk', 'Email: j.whitfield at example');
    expect(await read(bad)).toBeUndefined();
    const noName = raw('xe.en.eml').replace('Name: Olga Smirnova', '');
    expect(await read(noName)).toBeUndefined();
  });

  it('a code that is not one number leaves the property out, not guessed', async () => {
    const two = raw('xe.el.eml').replace('Κωδικός αγγελίας γραφείου: ΚΩΔ. 0042', 'Κωδικός αγγελίας γραφείου: 0042 / 0043');
    expect(await read(two)).toMatchObject({ source: 'xe', propertyRef: null, name: 'Ελένη Κωνσταντινίδου' });
    const none = raw('spitogatos.el.eml').replaceAll('Κωδικός ακινήτου (δικός σας): 0042', '');
    expect(await read(none)).toMatchObject({ source: 'spitogatos', propertyRef: null, portalRef: '1117534392' });
  });
});
