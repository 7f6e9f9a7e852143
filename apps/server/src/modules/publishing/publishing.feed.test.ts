import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SaxesParser } from 'saxes';
import { locations } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { insertObject, photoMaker } from '../../../test/records.ts';
import { runPublish } from './publishing.service.ts';
import { textLanguage } from './public.view.ts';

// The portal feed as a portal reads it: parsed as XML (well-formed, or the parser stops), each text
// marked with the language its words are in, the energy class as a code, addresses absolute on the
// public address (PUBLIC_URL).
const PUBLIC = 'https://homes.example.gr';
const t = await createTestApp({ PUBLIC_URL: PUBLIC });
const { app, db } = t;

const [region] = await db.insert(locations).values({ level: 1, nameEn: 'Chalkidiki', nameEl: 'Χαλκιδική', nameRu: 'Халкидики', path: [] }).returning();
await db.update(locations).set({ path: [region!.id] }).where(eq(locations.id, region!.id));

const photo = photoMaker(t, 'feed');
/** A complete object with a photo, published by the publishing work itself. */
async function published(values: Record<string, unknown>) {
  const o = await insertObject(db, {
    forSale: true,
    salePrice: 210000,
    area: 80,
    bedrooms: 2,
    locationId: region!.id,
    active: true,
    publishRequested: true,
    latitude: 40.1,
    longitude: 23.4,
    displayCoordinates: true,
    mapZoom: 15,
    ...values,
  });
  await photo(o!.id, { userName: 'IMG_0001.jpg', sortOrder: 1 });
  expect((await runPublish(db, { objectId: o!.id, actor: { id: null, name: 'test' } })).state).toBe('published');
  return String(o!.ref).padStart(4, '0');
}

type El = { name: string; attributes: Record<string, string>; children: El[]; text: string };

/** The feed parsed as XML: a strict parser, so a feed that is not well-formed fails here. */
function parse(xml: string): El {
  const parser = new SaxesParser();
  const stack: El[] = [];
  let root: El | undefined;
  parser.on('error', (e) => {
    throw e;
  });
  parser.on('opentag', (tag) => {
    const el: El = { name: tag.name, attributes: tag.attributes as Record<string, string>, children: [], text: '' };
    stack.at(-1)?.children.push(el);
    root ??= el;
    stack.push(el);
  });
  parser.on('text', (text) => {
    if (stack.length) stack.at(-1)!.text += text;
  });
  parser.on('closetag', () => void stack.pop());
  parser.write(xml).close();
  return root!;
}

async function feed(lang: string) {
  const res = await app.inject({ url: `/feed/listings.xml?lang=${lang}` });
  expect(res.statusCode).toBe(200);
  const root = parse(res.body);
  expect(root.name).toBe('listings');
  return (ref: string) => {
    const listing = root.children.find((c) => c.name === 'listing' && c.attributes.ref === ref);
    expect(listing, `listing ${ref}`).toBeDefined();
    const all = (name: string) => listing!.children.filter((c) => c.name === name);
    return {
      texts: (name: 'title' | 'description') => all(name).map((c) => ({ lang: c.attributes.lang, text: c.text })),
      one: (name: string) => all(name)[0]?.text,
      photos: () => all('photos').flatMap((p) => p.children.map((c) => c.text)),
    };
  };
}

const greek = await published({
  title: 'Διαμέρισμα με θέα στη θάλασσα',
  description: 'Ανακαινισμένο διαμέρισμα δύο υπνοδωματίων, 200 μ. από την παραλία.',
  titleRu: 'Квартира с видом на море',
  descriptionRu: 'Отремонтированная квартира с двумя спальнями, в 200 м от пляжа.',
  energyClass: 5,
});
const english = await published({ title: 'Stone house in the village', description: 'A stone house with a garden & a well <restored>.', energyClass: 10 });
// The main title in Greek, the description in English, and "Russian" texts copied from them.
const mixed = await published({
  title: 'Μεζονέτα στην Κασσάνδρα',
  description: 'Maisonette of 120 m² on two levels.',
  titleRu: 'Μεζονέτα στην Κασσάνδρα',
  descriptionRu: 'Maisonette, 120 m², two levels.',
  energyClass: 1,
});

// The three languages each in its own field.
const threeLanguages = await published({
  title: 'Βίλα με πισίνα στο Πευκοχώρι',
  description: 'Βίλα 180 τ.μ. με ιδιωτική πισίνα και θέα στη θάλασσα.',
  titleEn: 'Sea-view villa with a pool in Pefkochori',
  descriptionEn: 'A 180 m² villa with a private pool and sea views.',
  titleRu: 'Вилла с бассейном в Пефкохори',
  descriptionRu: 'Вилла 180 м² с собственным бассейном и видом на море.',
  energyClass: 3,
});
// An English main text and an English one: the one meant for English is the English text.
const twiceEnglish = await published({ title: 'Stone house', description: 'Stone house, garden.', titleEn: 'Restored stone house by the sea', descriptionEn: 'A restored stone house with a garden, 50 m from the sea.' });

describe('the portal feed', () => {
  it('gives the English title and description as lang="en", beside the Greek and Russian ones', async () => {
    for (const lang of ['en', 'el', 'ru']) {
      const listing = await feed(lang);
      expect(listing(threeLanguages).texts('title')).toEqual([
        { lang: 'el', text: 'Βίλα με πισίνα στο Πευκοχώρι' },
        { lang: 'en', text: 'Sea-view villa with a pool in Pefkochori' },
        { lang: 'ru', text: 'Вилла с бассейном в Пефкохори' },
      ]);
      expect(listing(threeLanguages).texts('description').map((d) => d.lang)).toEqual(['el', 'en', 'ru']);
      expect(listing(threeLanguages).texts('description')[1]!.text).toBe('A 180 m² villa with a private pool and sea views.');
      expect(listing(twiceEnglish).texts('title')).toEqual([{ lang: 'en', text: 'Restored stone house by the sea' }]);
      expect(listing(twiceEnglish).texts('description')).toEqual([{ lang: 'en', text: 'A restored stone house with a garden, 50 m from the sea.' }]);
    }
  });

  it('marks each title and description with the language of its words, whatever language the feed is asked in', async () => {
    for (const lang of ['en', 'el', 'ru']) {
      const listing = await feed(lang);
      expect(listing(greek).texts('title')).toEqual([
        { lang: 'el', text: 'Διαμέρισμα με θέα στη θάλασσα' },
        { lang: 'ru', text: 'Квартира с видом на море' },
      ]);
      expect(listing(greek).texts('description')).toEqual([
        { lang: 'el', text: 'Ανακαινισμένο διαμέρισμα δύο υπνοδωματίων, 200 μ. από την παραλία.' },
        { lang: 'ru', text: 'Отремонтированная квартира с двумя спальнями, в 200 м от пляжа.' },
      ]);
      // Only English: no Greek or Russian text is made up from it, and the XML's escaping reads back.
      expect(listing(english).texts('title')).toEqual([{ lang: 'en', text: 'Stone house in the village' }]);
      expect(listing(english).texts('description')).toEqual([{ lang: 'en', text: 'A stone house with a garden & a well <restored>.' }]);
      // Greek and English in the Russian fields are Greek and English: one text a language, the main field's; no Russian one.
      expect(listing(mixed).texts('title')).toEqual([{ lang: 'el', text: 'Μεζονέτα στην Κασσάνδρα' }]);
      expect(listing(mixed).texts('description')).toEqual([{ lang: 'en', text: 'Maisonette of 120 m² on two levels.' }]);
    }
  });

  it('gives the energy class as a code, not the reader\'s label', async () => {
    for (const lang of ['en', 'el', 'ru']) {
      const listing = await feed(lang);
      expect(listing(greek).one('energyClass')).toBe('C');
      expect(listing(english).one('energyClass')).toBe('exempt');
      expect(listing(mixed).one('energyClass')).toBe('A+');
    }
  });

  it('writes the listing and photo addresses absolute, on the public address', async () => {
    const listing = await feed('el');
    expect(listing(greek).one('url')).toBe(`${PUBLIC}/listings/${greek}?lang=el`);
    const photos = listing(greek).photos();
    expect(photos).toHaveLength(1);
    expect(photos[0]).toMatch(new RegExp(`^${PUBLIC.replace(/\./g, '\\.')}/listings/photo/feed\\d+-web\\.webp$`));
    // The photo is there at that address (the same path, asked of this server).
    expect((await app.inject({ url: new URL(photos[0]!).pathname })).statusCode).toBe(200);
  });

  it('tells a text\'s language by its letters', () => {
    expect(textLanguage('Μονοκατοικία 120 τ.μ.')).toBe('el');
    expect(textLanguage('Дом 120 м² (Kassandra)')).toBe('ru');
    expect(textLanguage('Villa, 3 bedrooms')).toBe('en');
    expect(textLanguage('Villa Ελένη with a sea view and a pool')).toBe('en');
    expect(textLanguage('Μεζονέτα με A/C και BBQ')).toBe('el');
    expect(textLanguage('120 / 2024')).toBeNull();
  });
});
