import { describe, expect, it } from 'vitest';
import { objects } from '../../db/schema/index.ts';
import { bearer, createTestApp } from '../../../test/harness.ts';

/**
 * A property's title in the reader's language: a Russian reader reads the Russian title wherever a
 * property is named (lists, map, pickers, the search box, leads, viewings, deals, reservations,
 * matching), everyone else the main title; without a Russian title, the Russian reader too.
 */
const t = await createTestApp();
const { app, db } = t;
const agent = await t.user({ roles: ['employee'] });

type Lang = 'en' | 'el' | 'ru';
const call = (method: 'GET' | 'POST', url: string, payload: unknown, lang: Lang) =>
  app.inject({ method, url, payload: payload as object, headers: { ...bearer(agent.token), 'accept-language': lang } });
async function ok<T = Record<string, unknown>>(method: 'GET' | 'POST', url: string, payload: unknown, lang: Lang): Promise<T> {
  const res = await call(method, url, payload, lang);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json() as T;
}

async function newObject(values: Record<string, unknown>) {
  const [o] = await db
    .insert(objects)
    .values({ active: true, latitude: 40.58, longitude: 22.95, displayCoordinates: true, ...values } as never)
    .returning({ id: objects.id, ref: objects.referenceNumber });
  return { id: o!.id, ref: String(o!.ref).padStart(4, '0') };
}
const GREEK = 'Μεζονέτα με θέα στη θάλασσα';
const RUSSIAN = 'Мезонет с видом на море';
const FLAT = 'Διαμέρισμα κοντά στο πανεπιστήμιο';
// A short-let maisonette with both titles; a flat with the Greek one only; a studio whose Russian
// title is an empty text (written by a script, not through the API, which stores null).
const villa = await newObject({ title: GREEK, titleRu: RUSSIAN, forSale: true, salePrice: 240000, forShortRent: true, shortRentPrice: 150, area: 130, bedrooms: 3 });
const flat = await newObject({ title: FLAT, titleRu: null, forSale: true, salePrice: 160000, area: 70, bedrooms: 2 });
const studio = await newObject({ title: 'Γκαρσονιέρα Τούμπα', titleRu: '', forSale: true, salePrice: 70000, area: 30 });
const expected = (lang: Lang) => ({ [villa.id]: lang === 'ru' ? RUSSIAN : GREEK, [flat.id]: FLAT, [studio.id]: 'Γκαρσονιέρα Τούμπα' });
const titlesOf = (rows: { id?: number; objectId?: number; title?: string | null }[]) => Object.fromEntries(rows.map((r) => [r.id ?? r.objectId, r.title]));

describe("a property's title in the reader's language", () => {
  it.each(['en', 'el', 'ru'] as const)('in the search list and on the map (%s)', async (lang) => {
    const list = await ok<{ items: { id: number; title: string | null }[] }>('POST', '/api/object/search', { perPage: 100 }, lang);
    expect(titlesOf(list.items)).toEqual(expected(lang));
    const map = await ok<{ items: { id: number; title: string | null }[] }>('POST', '/api/object/search', { showOnMap: true }, lang);
    expect(titlesOf(map.items)).toEqual(expected(lang));
  });

  it.each(['en', 'el', 'ru'] as const)('in the object picker and the search box (%s)', async (lang) => {
    for (const o of [villa, flat, studio]) {
      const picked = await ok<{ items: { id: number; description: string }[] }>('GET', `/api/object/searchByRefNumOrTitle?searchStr=${o.ref}`, undefined, lang);
      expect(picked.items.find((i) => i.id === o.id)?.description).toBe(`#${o.ref} · ${expected(lang)[o.id]}`);
      const box = await ok<{ items: { id: number; entity: string; description: string }[] }>('GET', `/api/search?searchStr=%23${o.ref}`, undefined, lang);
      expect(box.items.find((i) => i.entity === 'Object' && i.id === o.id)?.description).toBe(`#${o.ref} · ${expected(lang)[o.id]}`);
    }
  });

  it('is found by either title whatever the reader reads', async () => {
    for (const lang of ['en', 'ru'] as const) {
      for (const words of ['видом море', 'θέα θάλασσα', 'vidom']) {
        const found = await ok<{ items: { id: number }[] }>('GET', `/api/object/searchByRefNumOrTitle?searchStr=${encodeURIComponent(words)}`, undefined, lang);
        expect(found.items.map((i) => i.id), `${words} (${lang})`).toEqual([villa.id]);
      }
    }
  });

  it.each(['en', 'el', 'ru'] as const)("on a lead's offered objects, its matches and a viewing from it (%s)", async (lang) => {
    const leadId = (await ok<{ id: number }>('POST', '/api/lead/add', {}, lang)).id;
    const updated = await ok<{ objects: { objectId: number; title: string | null }[] }>(
      'POST',
      '/api/lead/update',
      { id: leadId, version: 1, forPurchase: true, purchaseBudgetRangeMin: 50000, purchaseBudgetRangeMax: 300000, objects: [{ objectId: flat.id }, { objectId: studio.id }] },
      lang,
    );
    expect(titlesOf(updated.objects)).toEqual({ [flat.id]: FLAT, [studio.id]: 'Γκαρσονιέρα Τούμπα' });
    // Matching proposes what is not offered yet: the maisonette.
    const matches = await ok<{ items: { objectId: number; title: string | null }[] }>('GET', `/api/lead/${leadId}/matches`, undefined, lang);
    expect(matches.items.find((m) => m.objectId === villa.id)?.title).toBe(expected(lang)[villa.id]);
    const added = await ok<{ objects: { objectId: number; title: string | null }[] }>('POST', '/api/lead/addObject', { leadId, objectId: villa.id }, lang);
    expect(titlesOf(added.objects)).toEqual(expected(lang));
    const lead = await ok<{ objects: { objectId: number; title: string | null }[] }>('GET', `/api/lead/view/${leadId}`, undefined, lang);
    expect(titlesOf(lead.objects)).toEqual(expected(lang));

    const blank = await ok<{ results: { objectId: number; title: string | null }[] }>('GET', `/api/Viewing/add?demandId=${leadId}`, undefined, lang);
    expect(titlesOf(blank.results)).toEqual(expected(lang));
    const saved = await ok<{ id: number; results: { objectId: number; title: string | null }[] }>(
      'POST',
      '/api/Viewing/update',
      { dateOfViewing: '2026-12-01T18:30:00', demandId: leadId, results: [{ objectId: villa.id, result: 1 }, { objectId: flat.id, result: 1 }] },
      lang,
    );
    expect(titlesOf(saved.results)).toEqual({ [villa.id]: expected(lang)[villa.id], [flat.id]: FLAT });
    const viewing = await ok<{ results: { objectId: number; title: string | null }[] }>('GET', `/api/Viewing/edit/${saved.id}`, undefined, lang);
    expect(titlesOf(viewing.results)).toEqual({ [villa.id]: expected(lang)[villa.id], [flat.id]: FLAT });
  });

  it.each(['en', 'el', 'ru'] as const)('on deals and their board (%s)', async (lang) => {
    const blank = await ok<{ objectTitle: string | null }>('GET', `/api/Deal/add?objectId=${villa.id}`, undefined, lang);
    expect(blank.objectTitle).toBe(expected(lang)[villa.id]);
    const deal = await ok<{ id: number; objectTitle: string | null }>('POST', '/api/Deal/update', { dealType: 2, dealStage: 1, objectId: villa.id, askingPrice: 240000 }, lang);
    expect(deal.objectTitle).toBe(expected(lang)[villa.id]);
    expect((await ok<{ objectTitle: string | null }>('GET', `/api/Deal/edit/${deal.id}`, undefined, lang)).objectTitle).toBe(expected(lang)[villa.id]);
    const board = await ok<{ columns: { cards: { id: number; objectTitle: string | null }[] }[] }>('POST', '/api/Deal/board', {}, lang);
    expect(board.columns.flatMap((c) => c.cards).find((c) => c.id === deal.id)?.objectTitle).toBe(expected(lang)[villa.id]);
    const onFlat = await ok<{ objectTitle: string | null }>('POST', '/api/Deal/update', { dealType: 2, dealStage: 1, objectId: flat.id }, lang);
    expect(onFlat.objectTitle).toBe(FLAT);
  });

  it.each(['en', 'el', 'ru'] as const)('on reservations (%s)', async (lang) => {
    const year = new Date().getFullYear();
    const checkIn = `${year}-0${['en', 'el', 'ru'].indexOf(lang) + 6}-10`;
    const blank = await ok<{ object: { title: string | null } }>('GET', `/api/Reservation/add?objectId=${villa.id}`, undefined, lang);
    expect(blank.object.title).toBe(expected(lang)[villa.id]);
    const saved = await ok<{ id: number; object: { title: string | null } }>('POST', '/api/Reservation/update', { objectId: villa.id, checkIn, duration: 5, client: { lastName: `Guest ${lang}` } }, lang);
    expect(saved.object.title).toBe(expected(lang)[villa.id]);
    expect((await ok<{ object: { title: string | null } }>('GET', `/api/Reservation/edit/${saved.id}`, undefined, lang)).object.title).toBe(expected(lang)[villa.id]);
    const list = await ok<{ items: { id: number; objectTitle: string | null }[] }>('POST', '/api/Reservation/search', { objectId: villa.id, startDate: `${year}-01-01`, endDate: `${year}-12-31` }, lang);
    expect(list.items.find((r) => r.id === saved.id)?.objectTitle).toBe(expected(lang)[villa.id]);
  });

  it("leaves the record's two titles as they are for the edit form", async () => {
    const view = await ok<{ title: string; titleRu: string }>('GET', `/api/object/view/${villa.id}`, undefined, 'ru');
    expect(view).toMatchObject({ title: GREEK, titleRu: RUSSIAN });
  });
});
