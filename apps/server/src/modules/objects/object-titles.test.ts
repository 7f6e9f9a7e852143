import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { objects } from '../../db/schema/index.ts';
import { createTestApp, json } from '../../../test/harness.ts';

/**
 * A property's title in the reader's language: a Russian reader reads the Russian title wherever a
 * property is named (lists, map, pickers, the search box, leads, viewings, deals, reservations,
 * matching), an English reader the English one, a Greek reader the main title. A reader whose title
 * is missing (null, empty or blank) reads the next one (OBJECT_TITLE_ORDER): the main title, then
 * the English or Russian one; no title only when the property has none.
 */
const t = await createTestApp();
const { db } = t;
const agent = await t.user({ roles: ['employee'] });

type Lang = 'en' | 'el' | 'ru';
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
// A short-let studio with only a Russian title (a Russian agent entered it); a plot whose main title
// is blank spaces (a script's) and a Russian one; a flat with no title at all, named by its address.
const RUSSIAN_ONLY = 'Студия у моря в Перее';
const PLOT_RU = 'Участок в Эпаноми';
const studioRu = await newObject({ title: null, titleRu: RUSSIAN_ONLY, forSale: true, salePrice: 95000, forShortRent: true, shortRentPrice: 60, area: 35, bedrooms: 1 });
const plot = await newObject({ title: '   ', titleRu: PLOT_RU, forSale: true, salePrice: 55000, area: 600 });
const untitled = await newObject({ title: null, titleRu: null, address: 'Τσιμισκή 12', forSale: true, salePrice: 130000, area: 60 });
// A house with all three titles: an English reader reads the English one; and a flat with an English title alone.
const HOUSE = 'Μονοκατοικία με κήπο στη Θέρμη';
const HOUSE_EN = 'Detached house with a garden in Thermi';
const HOUSE_RU = 'Дом с садом в Терми';
const FLAT_EN = 'Two-bedroom flat near the university';
const house = await newObject({ title: HOUSE, titleEn: HOUSE_EN, titleRu: HOUSE_RU, forSale: true, salePrice: 320000, area: 160, bedrooms: 4 });
const flatEn = await newObject({ title: null, titleEn: FLAT_EN, forSale: true, salePrice: 150000, area: 75, bedrooms: 2 });
const expected = (lang: Lang): Record<number, string | null> => ({
  [villa.id]: lang === 'ru' ? RUSSIAN : GREEK,
  [flat.id]: FLAT,
  [studio.id]: 'Γκαρσονιέρα Τούμπα',
  [studioRu.id]: RUSSIAN_ONLY,
  [plot.id]: PLOT_RU,
  [untitled.id]: null,
});
/** Every property for sale, with the two that have English titles. */
const allForSale = (lang: Lang): Record<number, string | null> => ({ ...expected(lang), [house.id]: lang === 'en' ? HOUSE_EN : lang === 'ru' ? HOUSE_RU : HOUSE, [flatEn.id]: FLAT_EN });
const titlesOf = (rows: { id?: number; objectId?: number; title?: string | null }[]) => Object.fromEntries(rows.map((r) => [r.id ?? r.objectId, r.title]));

describe("a property's title in the reader's language", () => {
  it.each(['en', 'el', 'ru'] as const)('in the search list and on the map (%s)', async (lang) => {
    // For sale: the many properties the last test adds are for rent only.
    const list = await json<{ items: { id: number; title: string | null }[] }>(agent.post('/api/object/search', { forSale: true, perPage: 100 }, { lang }));
    expect(titlesOf(list.items)).toEqual(allForSale(lang));
    const map = await json<{ items: { id: number; title: string | null }[] }>(agent.post('/api/object/search', { forSale: true, showOnMap: true }, { lang }));
    expect(titlesOf(map.items)).toEqual(allForSale(lang));
  });

  it.each(['en', 'el', 'ru'] as const)('in the object picker and the search box (%s)', async (lang) => {
    for (const o of [villa, flat, studio, studioRu, plot, untitled, house, flatEn]) {
      // A property with no title at all is named by its address, as before.
      const named = `#${o.ref} · ${allForSale(lang)[o.id] ?? 'Τσιμισκή 12'}`;
      const picked = await json<{ items: { id: number; description: string }[] }>(agent.get(`/api/object/searchByRefNumOrTitle?searchStr=${o.ref}`, { lang }));
      expect(picked.items.find((i) => i.id === o.id)?.description).toBe(named);
      const box = await json<{ items: { id: number; entity: string; description: string }[] }>(agent.get(`/api/search?searchStr=%23${o.ref}`, { lang }));
      expect(box.items.find((i) => i.entity === 'Object' && i.id === o.id)?.description).toBe(named);
    }
  });

  it('is found by either title whatever the reader reads', async () => {
    for (const lang of ['en', 'ru'] as const) {
      for (const words of ['видом море', 'θέα θάλασσα', 'vidom']) {
        const found = await json<{ items: { id: number }[] }>(agent.get(`/api/object/searchByRefNumOrTitle?searchStr=${encodeURIComponent(words)}`, { lang }));
        expect(found.items.map((i) => i.id), `${words} (${lang})`).toEqual([villa.id]);
      }
      // The English title too (an English screen lists the house by it).
      const found = await json<{ items: { id: number }[] }>(agent.get(`/api/object/searchByRefNumOrTitle?searchStr=${encodeURIComponent('house with a garden')}`, { lang }));
      expect(found.items.map((i) => i.id)).toEqual([house.id]);
    }
  });

  it.each(['en', 'el', 'ru'] as const)("on a lead's offered objects, its matches and a viewing from it (%s)", async (lang) => {
    const leadId = (await json<{ id: number }>(agent.post('/api/lead/add', {}, { lang }))).id;
    const updated = await json<{ objects: { objectId: number; title: string | null }[] }>(
      agent.post(
        '/api/lead/update',
        { id: leadId, version: 1, forPurchase: true, purchaseBudgetRangeMin: 50000, purchaseBudgetRangeMax: 300000, objects: [{ objectId: flat.id }, { objectId: studio.id }, { objectId: studioRu.id }, { objectId: plot.id }, { objectId: untitled.id }] },
        { lang },
      ),
    );
    const offered = { [flat.id]: FLAT, [studio.id]: 'Γκαρσονιέρα Τούμπα', [studioRu.id]: RUSSIAN_ONLY, [plot.id]: PLOT_RU, [untitled.id]: null };
    expect(titlesOf(updated.objects)).toEqual(offered);
    // Matching proposes what is not offered yet: the maisonette.
    const matches = await json<{ items: { objectId: number; title: string | null }[] }>(agent.get(`/api/lead/${leadId}/matches`, { lang }));
    expect(matches.items.find((m) => m.objectId === villa.id)?.title).toBe(expected(lang)[villa.id]);
    const added = await json<{ objects: { objectId: number; title: string | null }[] }>(agent.post('/api/lead/addObject', { leadId, objectId: villa.id }, { lang }));
    expect(titlesOf(added.objects)).toEqual(expected(lang));
    const lead = await json<{ objects: { objectId: number; title: string | null }[] }>(agent.get(`/api/lead/view/${leadId}`, { lang }));
    expect(titlesOf(lead.objects)).toEqual(expected(lang));

    const blank = await json<{ results: { objectId: number; title: string | null }[] }>(agent.get(`/api/Viewing/add?demandId=${leadId}`, { lang }));
    expect(titlesOf(blank.results)).toEqual(expected(lang));
    const saved = await json<{ id: number; results: { objectId: number; title: string | null }[] }>(
      agent.post(
        '/api/Viewing/update',
        { dateOfViewing: '2026-12-01T18:30:00', demandId: leadId, results: [{ objectId: villa.id, result: 1 }, { objectId: flat.id, result: 1 }, { objectId: studioRu.id, result: 1 }] },
        { lang },
      ),
    );
    const shown = { [villa.id]: expected(lang)[villa.id], [flat.id]: FLAT, [studioRu.id]: RUSSIAN_ONLY };
    expect(titlesOf(saved.results)).toEqual(shown);
    const viewing = await json<{ results: { objectId: number; title: string | null }[] }>(agent.get(`/api/Viewing/edit/${saved.id}`, { lang }));
    expect(titlesOf(viewing.results)).toEqual(shown);
    const ofLead = await json<{ items: { id: number; objects: { objectId: number; title: string | null }[] }[] }>(agent.get(`/api/lead/${leadId}/viewings`, { lang }));
    expect(titlesOf(ofLead.items.find((v) => v.id === saved.id)?.objects ?? [])).toEqual(shown);
  });

  it.each(['en', 'el', 'ru'] as const)('on deals and their board (%s)', async (lang) => {
    const blank = await json<{ objectTitle: string | null }>(agent.get(`/api/Deal/add?objectId=${villa.id}`, { lang }));
    expect(blank.objectTitle).toBe(expected(lang)[villa.id]);
    const deal = await json<{ id: number; objectTitle: string | null }>(agent.post('/api/Deal/update', { dealType: 2, dealStage: 1, objectId: villa.id, askingPrice: 240000 }, { lang }));
    expect(deal.objectTitle).toBe(expected(lang)[villa.id]);
    expect((await json<{ objectTitle: string | null }>(agent.get(`/api/Deal/edit/${deal.id}`, { lang }))).objectTitle).toBe(expected(lang)[villa.id]);
    const board = await json<{ columns: { cards: { id: number; objectTitle: string | null }[] }[] }>(agent.post('/api/Deal/board', {}, { lang }));
    expect(board.columns.flatMap((c) => c.cards).find((c) => c.id === deal.id)?.objectTitle).toBe(expected(lang)[villa.id]);
    const onFlat = await json<{ objectTitle: string | null }>(agent.post('/api/Deal/update', { dealType: 2, dealStage: 1, objectId: flat.id }, { lang }));
    expect(onFlat.objectTitle).toBe(FLAT);
    // A property with only a Russian title: that title on every screen.
    expect((await json<{ objectTitle: string | null }>(agent.get(`/api/Deal/add?objectId=${studioRu.id}`, { lang }))).objectTitle).toBe(RUSSIAN_ONLY);
    const onStudio = await json<{ id: number; objectTitle: string | null }>(agent.post('/api/Deal/update', { dealType: 2, dealStage: 1, objectId: studioRu.id }, { lang }));
    expect(onStudio.objectTitle).toBe(RUSSIAN_ONLY);
    expect((await json<{ objectTitle: string | null }>(agent.get(`/api/Deal/edit/${onStudio.id}`, { lang }))).objectTitle).toBe(RUSSIAN_ONLY);
    const again = await json<{ columns: { cards: { id: number; objectTitle: string | null }[] }[] }>(agent.post('/api/Deal/board', {}, { lang }));
    expect(again.columns.flatMap((c) => c.cards).find((c) => c.id === onStudio.id)?.objectTitle).toBe(RUSSIAN_ONLY);
  });

  it.each(['en', 'el', 'ru'] as const)('on reservations (%s)', async (lang) => {
    const year = new Date().getFullYear();
    const checkIn = `${year}-0${['en', 'el', 'ru'].indexOf(lang) + 6}-10`;
    const blank = await json<{ object: { title: string | null } }>(agent.get(`/api/Reservation/add?objectId=${villa.id}`, { lang }));
    expect(blank.object.title).toBe(expected(lang)[villa.id]);
    const saved = await json<{ id: number; object: { title: string | null } }>(agent.post('/api/Reservation/update', { objectId: villa.id, checkIn, duration: 5, client: { lastName: `Guest ${lang}` } }, { lang }));
    expect(saved.object.title).toBe(expected(lang)[villa.id]);
    expect((await json<{ object: { title: string | null } }>(agent.get(`/api/Reservation/edit/${saved.id}`, { lang }))).object.title).toBe(expected(lang)[villa.id]);
    const list = await json<{ items: { id: number; objectTitle: string | null }[] }>(agent.post('/api/Reservation/search', { objectId: villa.id, startDate: `${year}-01-01`, endDate: `${year}-12-31` }, { lang }));
    expect(list.items.find((r) => r.id === saved.id)?.objectTitle).toBe(expected(lang)[villa.id]);
    // A property with only a Russian title: that title on every screen.
    expect((await json<{ object: { title: string | null } }>(agent.get(`/api/Reservation/add?objectId=${studioRu.id}`, { lang }))).object.title).toBe(RUSSIAN_ONLY);
    const onStudio = await json<{ id: number; object: { title: string | null } }>(agent.post('/api/Reservation/update', { objectId: studioRu.id, checkIn, duration: 5, client: { lastName: `Guest ${lang}` } }, { lang }));
    expect(onStudio.object.title).toBe(RUSSIAN_ONLY);
    expect((await json<{ object: { title: string | null } }>(agent.get(`/api/Reservation/edit/${onStudio.id}`, { lang }))).object.title).toBe(RUSSIAN_ONLY);
    const ofStudio = await json<{ items: { id: number; objectTitle: string | null }[] }>(agent.post('/api/Reservation/search', { objectId: studioRu.id, startDate: `${year}-01-01`, endDate: `${year}-12-31` }, { lang }));
    expect(ofStudio.items.find((r) => r.id === onStudio.id)?.objectTitle).toBe(RUSSIAN_ONLY);
  });

  it("leaves the record's two titles as they are for the edit form", async () => {
    const view = await json<{ title: string; titleRu: string }>(agent.get(`/api/object/view/${villa.id}`, { lang: 'ru' }));
    expect(view).toMatchObject({ title: GREEK, titleRu: RUSSIAN });
    // The missing title stays missing in the record: the form shows that field empty, for every reader.
    for (const lang of ['en', 'el', 'ru'] as const) {
      expect(await json(agent.get(`/api/object/view/${studioRu.id}`, { lang }))).toMatchObject({ title: null, titleRu: RUSSIAN_ONLY });
    }
  });
});

describe("the reader's title and the indexes", () => {
  it('is only selected: every statement that names a property is planned as with the bare main title', async () => {
    // Enough properties that the planner takes an index wherever one serves: for rent only, so the
    // tests above (which search properties for sale) see none of them.
    await db.execute(sql`insert into objects (active, for_rent, rent_price, area, title, title_ru)
      select true, true, 400 + g % 900, 40 + g % 120, case when g % 3 > 0 then 'Διαμέρισμα ' || g end, case when g % 2 = 1 then 'Квартира ' || g end
      from generate_series(0, 19999) g`);
    await t.pool.query('vacuum analyze objects');

    const leadId = (await json<{ id: number }>(agent.post('/api/lead/add', {}, { lang: 'en' }))).id;
    await json(agent.post('/api/lead/update', { id: leadId, version: 1, forPurchase: true, purchaseBudgetRangeMin: 50000, purchaseBudgetRangeMax: 300000, objects: [{ objectId: studioRu.id }] }, { lang: 'en' }));

    // Every statement the server sends while answering, as sent (recorded on the way to the pool).
    const sent: { text: string; values: unknown[] }[] = [];
    const query = t.pool.query.bind(t.pool);
    t.pool.query = ((q: string | { text: string; values?: unknown[] }, values?: unknown[]) => {
      const text = typeof q === 'string' ? q : q.text;
      sent.push({ text, values: values ?? (typeof q === 'string' ? [] : (q.values ?? [])) });
      return query(q as never, values as never);
    }) as typeof t.pool.query;
    try {
      for (const lang of ['en', 'ru'] as const) {
        // The search list as before: for rent, a price range, newest first; and its map.
        await json(agent.post('/api/object/search', { forRent: true, priceMin: 500, priceMax: 700, perPage: 20 }, { lang }));
        await json(agent.post('/api/object/search', { forRent: true, priceMin: 500, priceMax: 700, showOnMap: true }, { lang }));
        // The picker and the search box, by a word and by a reference number.
        await json(agent.get(`/api/object/searchByRefNumOrTitle?searchStr=${encodeURIComponent('Квартира 1234')}`, { lang }));
        await json(agent.get(`/api/object/searchByRefNumOrTitle?searchStr=${studioRu.ref}`, { lang }));
        await json(agent.get(`/api/search?searchStr=${encodeURIComponent('Διαμέρισμα 1234')}`, { lang }));
        await json(agent.get(`/api/lead/view/${leadId}`, { lang }));
        await json(agent.get(`/api/lead/${leadId}/matches`, { lang }));
        await json(agent.post('/api/Deal/board', {}, { lang }));
        await json(agent.post('/api/Reservation/search', {}, { lang }));
      }
    } finally {
      t.pool.query = query;
    }

    // The reader's title as the statement selects it, and the bare main title it replaced.
    const readersTitle = /coalesce\(nullif\(btrim\(("\w+")\."title(?:_ru|_en)?"\), ''\)(?:, nullif\(btrim\(\1\."title(?:_ru|_en)?"\), ''\)){2}\)/g;
    const naming = sent.filter((s) => new RegExp(readersTitle.source).test(s.text));
    const plan = async (text: string, values: unknown[]) =>
      (await t.pool.query(`explain (costs off) ${text}`, values)).rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
    // The list, the map, both pickers, the search box, the lead, its matches, the board, reservations: in two languages.
    expect(naming.length).toBeGreaterThanOrEqual(18);
    for (const s of naming) {
      const withTitle = await plan(s.text, s.values);
      const bare = await plan(s.text.replace(readersTitle, '$1."title"'), s.values);
      expect(withTitle, s.text).toBe(bare);
    }
    // The list's page: its rows by their ids (one placeholder each) from the primary key; the ids themselves (newest first)
    // from the index on the creation time, as before.
    const page = naming.find((s) => /"objects"\."id" in \(\$1/.test(s.text));
    expect(page, 'the search list page').toBeDefined();
    expect(await plan(page!.text, page!.values)).toMatch(/Index Scan using objects_pkey|Bitmap Index Scan on objects_pkey/);
    const ids = sent.find((s) => /order by "objects"\."created_on" desc, "objects"\."id" desc/.test(s.text) && !/title/.test(s.text));
    expect(await plan(ids!.text, ids!.values)).toContain('objects_created_on_id_idx');
    // The picker's words from the trigram index.
    const picker = naming.find((s) => /search_text/.test(s.text) && s.values.some((v) => typeof v === 'string' && v.toLowerCase() === 'квартира'));
    expect(picker, 'the picker by words').toBeDefined();
    expect(await plan(picker!.text, picker!.values)).toContain('objects_search_trgm_idx');
  }, 120_000);
});
