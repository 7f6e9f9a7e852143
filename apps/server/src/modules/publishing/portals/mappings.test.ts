import { describe, expect, it } from 'vitest';
import type { TPortalListing } from './listing.ts';
import { PORTAL_MAPPINGS } from './feeds.ts';
import { photoNotes, portalPhotos } from './common.ts';

/**
 * Each portal's checks on sample listings (decision 083): what a portal has no code for, or does
 * not take, blocks the property there with the reason, never a blank element in the feed.
 */
const sample: TPortalListing = {
  id: 1, ref: '0042', updated: '2026-11-01T10:00:00.000Z', typeId: 1, subTypeId: 1,
  prices: [{ service: 'sale', price: 185000 }], area: 78, lotArea: null, bedrooms: 2, bathrooms: 1, floor: 3, constructionYear: 1999,
  energyClass: 4,
  titles: [{ lang: 'el', text: 'Διαμέρισμα 78 τ.μ.' }, { lang: 'en', text: 'Flat of 78 m²' }],
  descriptions: [
    { lang: 'el', text: 'Φωτεινό διαμέρισμα δύο υπνοδωματίων, 200 μέτρα από την παραλία, με μπαλκόνι.' },
    { lang: 'en', text: 'A bright two-bedroom flat, 200 metres from the beach, with a balcony.' },
  ],
  photos: [{ web: 'a-web.webp', thumb: 'a-thumb.webp', width: 1600, height: 1200 }],
  coordinates: { latitude: 40.6, longitude: 22.95, exact: true },
  regionKey: 'thessaloniki', region: { en: 'Thessaloniki', el: 'Θεσσαλονίκη', ru: 'Салоники' }, town: { en: 'Kalamaria', el: 'Καλαμαριά', ru: 'Каламария' }, place: null,
  address: null, zipCode: null, features: ['elevator'], videoURL: null, onSite: true,
};
const keys = (kind: keyof typeof PORTAL_MAPPINGS, o: Partial<TPortalListing>, agencyId: string | null = 'A1') => PORTAL_MAPPINGS[kind].check({ ...sample, ...o }, { agencyId }).map((p) => p.key);

describe('the portals’ checks', () => {
  it('take a complete flat on every portal', () => {
    for (const kind of ['kyero', 'indomio', 'spitogatos', 'xe'] as const) expect(keys(kind, {}), kind).toEqual([]);
  });

  it('refuse a short-stay-only property everywhere, saying the portal takes no short stays', () => {
    for (const kind of ['kyero', 'indomio', 'spitogatos', 'xe'] as const) expect(keys(kind, { prices: [{ service: 'shortRent', price: 90 }] })).toContain('portals.missing.shortStayOnly');
  });

  it('refuse a place in a prefecture the portal has no code for, naming it', () => {
    const problems = PORTAL_MAPPINGS.spitogatos.check({ ...sample, regionKey: 'attica', region: { en: 'Attica', el: 'Αττική', ru: 'Аттика' } }, { agencyId: 'A1' });
    expect(problems).toContainEqual({ key: 'portals.missing.regionCode', params: { region: 'Attica' } });
  });

  it('ask Spitogatos for the agency’s ID there, and the Greek portals for a Greek title', () => {
    expect(keys('spitogatos', {}, null)).toEqual(['portals.missing.agencyId']);
    expect(keys('xe', { titles: [{ lang: 'en', text: 'Flat' }] })).toEqual(['portals.missing.title.el']);
  });

  it('ask Kyero for an English description and leave the energy class optional; the Greek portals require it', () => {
    expect(keys('kyero', { descriptions: sample.descriptions.filter((d) => d.lang === 'el'), energyClass: null })).toEqual(['portals.missing.description.en']);
    for (const kind of ['indomio', 'spitogatos', 'xe'] as const) expect(keys(kind, { energyClass: null })).toEqual(['portals.missing.energyClass']);
  });

  it('count the photos a portal asks for', () => {
    expect(PORTAL_MAPPINGS.xe.check({ ...sample, photos: [] }, { agencyId: null })).toContainEqual({ key: 'portals.missing.photos', params: { min: 1, count: 0 } });
  });

  it('send each portal at most the photos it takes, of a size it takes, and say what is left out', () => {
    const many = { ...sample, photos: Array.from({ length: 60 }, (_, i) => ({ web: `p${i}-web.webp`, thumb: `p${i}-thumb.webp`, width: i === 0 ? 320 : 1600, height: i === 0 ? 240 : 1067 })) };
    const kyero = PORTAL_MAPPINGS.kyero.photos;
    expect(portalPhotos(many, kyero).map((p) => p.web)).toEqual(many.photos.slice(1, 51).map((p) => p.web));
    expect(photoNotes(many, kyero)).toEqual([
      { key: 'portals.photo.tooSmall', params: { n: 1, width: 320, height: 240, minWidth: 800, minHeight: 600 } },
      { key: 'portals.photo.tooMany', params: { max: 50, count: 59 } },
    ]);
    expect(portalPhotos(many, PORTAL_MAPPINGS.xe.photos)).toHaveLength(PORTAL_MAPPINGS.xe.photos.maxCount);
    // A photo whose size was never read is sent (the portal judges it).
    expect(portalPhotos({ ...sample, photos: [{ web: 'a', thumb: 'b', width: null, height: null }] }, kyero)).toHaveLength(1);
  });
});
