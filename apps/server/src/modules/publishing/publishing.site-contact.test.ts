import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { locations, siteSettings } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { photoMaker, publishableObject } from '../../../test/records.ts';
import { runPublish } from './publishing.service.ts';
import { GALLERY_SCRIPT_URL } from './public.script.ts';

/**
 * The agency's own details on the public pages (decision 022): in every page's footer and beside a
 * property's enquiry form, as phone and mail links, and nothing at all while they are not set; and
 * the gallery's previous/next buttons, which come as a script file of the site.
 */
const t = await createTestApp({ PUBLIC_URL: 'https://homes.example.gr' });
const { app, db } = t;
const admin = await t.user({ roles: ['admin'] });

const [place] = await db.insert(locations).values({ level: 1, parentId: null, nameEn: 'Kalamaria', nameEl: 'Καλαμαριά', nameRu: 'Каламария', path: [] }).returning();
await db.update(locations).set({ path: [place!.id] }).where(eq(locations.id, place!.id));

const addPhoto = photoMaker(t, 'c');
async function published(title: string, photos: number) {
  const o = await publishableObject(db, { title, locationId: place!.id, publishRequested: true });
  for (let i = 0; i < photos; i++) await addPhoto(o.id);
  expect((await runPublish(db, { objectId: o.id, actor: { id: null, name: 'test' } })).state).toBe('published');
  app.publicPages.clear();
  return { id: o.id, ref: o.ref };
}
const page = (url: string) => app.inject({ url });
const footerOf = (body: string) => /<footer>([\s\S]*?)<\/footer>/.exec(body)![1]!;
const contactBoxOf = (body: string) => /<section class="box" id="contact"[\s\S]*?<\/section>/.exec(body)![0];
const setDetails = async (details: Record<string, string | null>) => {
  const version = (await db.select().from(siteSettings))[0]!.version;
  const res = await admin.post('/api/SiteSettings', { ...details, version });
  expect(res.statusCode, res.body).toBe(200);
};

const flat = await published('Flat with three photos', 3);

describe("the agency's details on the public pages", () => {
  it('shows no phone, e-mail or address anywhere while none is set', async () => {
    for (const url of ['/listings?lang=en', `/listings/${flat.ref}?lang=el`, '/listings/9999?lang=en']) {
      const body = (await page(url)).body;
      expect(body, url).not.toContain('tel:');
      expect(body, url).not.toContain('mailto:');
      expect(body, url).not.toContain('data-testid="site-contact"');
      expect(body, url).not.toContain('data-testid="contact-direct"');
    }
  });

  it('shows them in every footer and beside the enquiry form once set, in each language, at once', async () => {
    // Seen before the change (kept in the page cache), then again after it.
    expect((await page(`/listings/${flat.ref}?lang=en`)).body).not.toContain('tel:');
    await setDetails({ name: 'Thermaikos Homes', phone: '+30 2310 123 456', email: 'info@thermaikos-homes.gr', address: 'Tsimiski 45, Thessaloniki' });

    const list = (await page('/listings?lang=en')).body;
    const footer = footerOf(list);
    expect(footer).toContain('<address class="agency" data-testid="site-contact">');
    expect(footer).toContain('<span class="agency-name">Thermaikos Homes</span>');
    expect(footer).toContain('Tsimiski 45, Thessaloniki');
    expect(footer).toContain('Phone: <a href="tel:+302310123456" data-testid="site-phone">+30 2310 123 456</a>');
    expect(footer).toContain('E-mail: <a href="mailto:info@thermaikos-homes.gr" data-testid="site-email">info@thermaikos-homes.gr</a>');
    // The name set is the site's name in the header and the title too.
    expect(list).toContain('<a class="brand" href="/listings?lang=en">Thermaikos Homes</a>');
    expect(list).toContain('<meta property="og:site_name" content="Thermaikos Homes">');
    // ... and the portals' feed's agency.
    expect((await page('/feed/listings.xml?lang=en')).body).toContain('agency="Thermaikos Homes"');

    const el = (await page(`/listings/${flat.ref}?lang=el`)).body;
    expect(footerOf(el)).toContain('Τηλέφωνο: <a href="tel:+302310123456" data-testid="site-phone">+30 2310 123 456</a>');
    expect(footerOf(el)).toContain('Ηλ. ταχυδρομείο: <a href="mailto:info@thermaikos-homes.gr"');
    const box = contactBoxOf(el);
    expect(box).toContain('Ή επικοινωνήστε απευθείας μαζί μας:');
    expect(box).toContain('<a href="tel:+302310123456" data-testid="contact-phone">+30 2310 123 456</a>');
    // The mail link carries the property's reference as its subject.
    expect(box).toContain(`href="mailto:info@thermaikos-homes.gr?subject=${encodeURIComponent(`Ακίνητο ${flat.ref}: Flat with three photos`)}"`);
    // The form is still there, after the direct details.
    expect(box.indexOf('data-testid="contact-direct"')).toBeLessThan(box.indexOf('data-testid="contact-form"'));

    const ru = (await page(`/listings/${flat.ref}?lang=ru`)).body;
    expect(contactBoxOf(ru)).toContain('Или свяжитесь с нами напрямую:');
    expect(footerOf(ru)).toContain('Телефон: <a href="tel:+302310123456"');
    // The 404 page has the footer too.
    expect(footerOf((await page('/listings/9999?lang=en')).body)).toContain('tel:+302310123456');
  });

  it('shows only what is set: a phone without the + dials as written, no e-mail means no mail link', async () => {
    await setDetails({ name: null, phone: '2310 123456', email: null, address: null });
    const body = (await page(`/listings/${flat.ref}?lang=en`)).body;
    expect(footerOf(body)).toContain('<a href="tel:2310123456" data-testid="site-phone">2310 123456</a>');
    expect(contactBoxOf(body)).toContain('data-testid="contact-phone"');
    expect(body).not.toContain('mailto:');
    expect(body).not.toContain('data-testid="site-address"');
    // No name set: the site name text of the language again.
    expect(body).toContain('<span class="agency-name">Real Estate Agency</span>');

    await setDetails({ name: null, phone: null, email: null, address: null });
    const none = (await page(`/listings/${flat.ref}?lang=en`)).body;
    expect(none).not.toContain('tel:');
    expect(none).not.toContain('data-testid="site-contact"');
  });
});

describe("the gallery's previous and next buttons", () => {
  it('are real buttons with translated names, hidden until the script shows them', async () => {
    for (const [lang, prev, next] of [
      ['en', 'Previous photo', 'Next photo'],
      ['el', 'Προηγούμενη φωτογραφία', 'Επόμενη φωτογραφία'],
      ['ru', 'Предыдущее фото', 'Следующее фото'],
    ] as const) {
      const body = (await page(`/listings/${flat.ref}?lang=${lang}`)).body;
      expect(body).toMatch(new RegExp(`<button type="button" class="gallery-nav prev" data-dir="-1" aria-controls="gallery" aria-label="${prev}" data-testid="gallery-prev" hidden>`));
      expect(body).toMatch(new RegExp(`<button type="button" class="gallery-nav next" data-dir="1" aria-controls="gallery" aria-label="${next}" data-testid="gallery-next" hidden>`));
      // The list itself still scrolls and takes the focus (arrow keys), script or not.
      expect(body).toContain('<ul class="gallery" id="gallery" tabindex="0"');
      expect(body).toContain(`<script src="${GALLERY_SCRIPT_URL}" defer></script>`);
    }
  });

  it('come from a script file of the site, allowed by the CSP without any inline script', async () => {
    const res = await page(`/listings/${flat.ref}?lang=en`);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).not.toContain('unsafe-inline\' \'self');
    expect(/script-src ([^;]*)/.exec(csp)![1]).not.toContain('unsafe-inline');
    expect(res.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    const js = await page(GALLERY_SCRIPT_URL);
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.body).toContain("querySelectorAll('[data-gallery]')");
    // An old address is not kept for a year.
    expect((await page('/listings/gallery.js?v=old')).headers['cache-control']).toBe('public, max-age=300');
  });

  it('are not there for a single photo, which still opens full screen (the script shows that button)', async () => {
    const one = await published('Studio with one photo', 1);
    const body = (await page(`/listings/${one.ref}?lang=en`)).body;
    expect(body).toContain('<ul class="gallery"');
    expect(body).not.toContain('class="gallery-nav');
    expect(body).not.toContain('data-testid="lightbox-next"');
    expect(body).toContain('data-testid="gallery-full" hidden>');
    expect(body).toContain(`<script src="${GALLERY_SCRIPT_URL}" defer></script>`);
  });
});
