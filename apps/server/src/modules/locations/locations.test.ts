import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp } from '../../../test/harness.ts';
import { seedLocations } from '../../db/seed/locations.ts';
import { PLACES } from '../../db/seed/locations-data.ts';
import { locationAndDescendants, locationText, locationWithin } from './locations.service.ts';

const t = await createTestApp();
const { app } = t;
const emp = await t.user({ roles: ['employee'] });
const branchEmp = await t.user({ roles: ['employee'], branchId: 1 });
const client = await t.user({ roles: ['clientPayments'] });

type Item = { id: number; text: string };
const search = async (q: string, culture = 'el') => {
  const res = await emp.get(`/api/location/search?searchStr=${encodeURIComponent(q)}`, { lang: culture });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: Item[] }).items;
};
const idOf = async (key: string) => {
  const r = (await t.db.execute(sql`select id from locations where key = ${key}`)).rows[0] as { id: number } | undefined;
  if (!r) throw new Error(`no place ${key}`);
  return r.id;
};
const countPlaces = (ps: typeof PLACES): number => ps.reduce((n, p) => n + 1 + countPlaces(p.children ?? []), 0);

describe('the places', () => {
  it('are seeded with the app: prefectures, municipalities and areas of Thessaloniki and Chalkidiki', async () => {
    const rows = (await t.db.execute(sql`select level, count(*)::int as n from locations group by level order by level`)).rows as { level: number; n: number }[];
    expect(rows.map((r) => r.level)).toEqual([1, 2, 3]);
    expect(rows.reduce((n, r) => n + r.n, 0)).toBe(countPlaces(PLACES));
    expect(countPlaces(PLACES)).toBeGreaterThanOrEqual(120);
  });

  it('seeding again changes nothing and keeps every id', async () => {
    const before = (await t.db.execute(sql`select id, key, path, text_el from locations order by id`)).rows;
    await seedLocations(t.db);
    const after = (await t.db.execute(sql`select id, key, path, text_el from locations order by id`)).rows;
    expect(after).toEqual(before);
  });

  it('a corrected name reaches the database by the place\'s key, and the texts below it follow', async () => {
    const kalamaria = await idOf('thessaloniki.kalamaria');
    await t.db.execute(sql`update locations set name_en = 'Kalamaria (old spelling)' where id = ${kalamaria}`);
    await seedLocations(t.db);
    const r = (await t.db.execute(sql`select name_en, text_en from locations where key = 'thessaloniki.kalamaria.karabournaki'`)).rows[0];
    expect(r).toEqual({ name_en: 'Karabournaki', text_en: 'Karabournaki, Kalamaria, Thessaloniki' });
    expect(await idOf('thessaloniki.kalamaria')).toBe(kalamaria);
  });

  it('say their parents in the reader\'s language, a namesake parent once, and never read alike', async () => {
    const texts = (await t.db.execute(sql`select key, text_el, text_en, text_ru from locations`)).rows as { key: string; text_el: string; text_en: string; text_ru: string }[];
    const by = new Map(texts.map((r) => [r.key, r]));
    expect(by.get('thessaloniki.kalamaria.karabournaki')).toMatchObject({ text_el: 'Καραμπουρνάκι, Καλαμαριά, Θεσσαλονίκη', text_en: 'Karabournaki, Kalamaria, Thessaloniki', text_ru: 'Карабурнаки, Каламария, Салоники' });
    expect(by.get('thessaloniki.kalamaria.kalamaria')?.text_el).toBe('Καλαμαριά, Θεσσαλονίκη');
    expect(by.get('thessaloniki.kalamaria')?.text_el).toBe('Καλαμαριά (δήμος), Θεσσαλονίκη');
    expect(by.get('thessaloniki.kalamaria')?.text_ru).toBe('Каламария (община), Салоники');
    expect(by.get('thessaloniki')?.text_en).toBe('Thessaloniki (prefecture)');
    expect(by.get('thessaloniki.thessaloniki')?.text_el).toBe('Θεσσαλονίκη');
    expect(by.get('chalkidiki.kassandra.pefkochori')?.text_el).toBe('Πευκοχώρι, Κασσάνδρα, Χαλκιδική');
    for (const c of ['text_el', 'text_en', 'text_ru'] as const) {
      expect(new Set(texts.map((r) => r[c])).size, c).toBe(texts.length);
    }
  });
});

describe('GET /api/location/search', () => {
  it('finds a Greek place typed without accents and in capitals, its own name first', async () => {
    const items = await search('ΚΑΛΑΜΑΡΙΑ');
    // The municipality and its seat of the same name are one place to an agent: offered once, as the seat (which covers the municipality).
    expect(items[0]?.text).toBe('Καλαμαριά, Θεσσαλονίκη');
    expect(items.filter((i) => i.text.startsWith('Καλαμαριά'))).toHaveLength(1);
    expect((await search('Thessaloniki', 'en')).filter((i) => /^Thessaloniki\b/.test(i.text)).map((i) => i.text)).toEqual(['Thessaloniki']);
    // then the areas of Kalamaria, found through their parent
    expect(items.map((i) => i.text)).toContain('Αρετσού, Καλαμαριά, Θεσσαλονίκη');
  });

  it('finds Greek names from Greeklish, English and Russian spellings, answering in the reader\'s language', async () => {
    expect((await search('pefkoxori'))[0]?.text).toBe('Πευκοχώρι, Κασσάνδρα, Χαλκιδική');
    expect((await search('Pefkochori', 'en'))[0]?.text).toBe('Pefkochori, Kassandra, Chalkidiki');
    expect((await search('пефкохори', 'ru'))[0]?.text).toBe('Пефкохори, Кассандра, Халкидики');
    expect((await search('Χανιωτη', 'en'))[0]?.text).toBe('Chaniotis, Kassandra, Chalkidiki');
    expect((await search('karampournaki'))[0]?.text).toBe('Καραμπουρνάκι, Καλαμαριά, Θεσσαλονίκη');
    expect((await search('xortiatis'))[0]?.text).toBe('Χορτιάτης, Πυλαία-Χορτιάτης, Θεσσαλονίκη');
    expect((await search('Xirokrini', 'en'))[0]?.text).toBe('Xirokrini, Thessaloniki');
    expect((await search('8ermi', 'en')).map((i) => i.text)).toContain('Thermi, Thessaloniki');
  });

  it('narrows by the parents with several words', async () => {
    const items = await search('kallithea kassandra', 'en');
    expect(items.map((i) => i.text)).toEqual(['Kallithea, Kassandra, Chalkidiki']);
  });

  it('puts places whose name starts with the text before places that merely contain it', async () => {
    const items = await search('ραιδ');
    expect(items[0]?.text).toBe('Νέα Ραιδεστός, Θέρμη, Θεσσαλονίκη');
    const nea = await search('νεα', 'el');
    expect(nea.length).toBe(20);
    // "Νέα ..." names start with the text: the first hits all do
    expect(nea.slice(0, 5).every((i) => /^Ν[έε]/.test(i.text))).toBe(true);
  });

  it('answers at most 20, and nothing for empty text', async () => {
    expect((await search('α')).length).toBe(20);
    expect(await search('')).toEqual([]);
    expect(await search('   ')).toEqual([]);
    const res = await emp.get('/api/location/search');
    expect(res.json()).toEqual({ items: [] });
  });

  it('takes wildcards and quotes as text', async () => {
    expect(await search('%')).toEqual([]);
    expect(await search('_')).toEqual([]);
    expect(await search("o'")).toEqual([]);
    expect(await search('\\')).toEqual([]);
  });

  it('refuses bad input with a clear 400 and is staff-only', async () => {
    const long = await emp.get(`/api/location/search?searchStr=${'a'.repeat(201)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ status: 400 });
    const nul = await emp.get('/api/location/search?searchStr=a%00b');
    expect(nul.statusCode).toBe(400);
    expect((await app.inject({ url: '/api/location/search?searchStr=a' })).statusCode).toBe(401);
    expect((await client.get('/api/location/search?searchStr=a')).statusCode).toBe(403);
    expect((await branchEmp.get('/api/location/search?searchStr=thermi')).statusCode).toBe(200);
  });
});

describe('GET /api/object/getTopLocations', () => {
  const top = async (culture = 'en') => {
    const res = await emp.get('/api/object/getTopLocations', { lang: culture });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { locations: (Item & { objects: number })[] }).locations;
  };

  it('offers the main markets while there are no objects', async () => {
    const list = await top('el');
    expect(list.length).toBe(10);
    expect(list.every((l) => l.objects === 0)).toBe(true);
    expect(list.slice(0, 3).map((l) => l.text)).toEqual(['Θεσσαλονίκη', 'Καλαμαριά, Θεσσαλονίκη', 'Πυλαία-Χορτιάτης, Θεσσαλονίκη']);
  });

  it('lists the places with the most objects first, an area counting for its municipality too', async () => {
    const karabournaki = await idOf('thessaloniki.kalamaria.karabournaki');
    const aretsou = await idOf('thessaloniki.kalamaria.aretsou');
    const sarti = await idOf('chalkidiki.sithonia.sarti');
    // Asked before the objects come (the answer is kept until an object or a place changes).
    expect((await top('en')).every((l) => l.objects === 0)).toBe(true);
    await t.db.execute(sql`insert into objects (location_id) select ${karabournaki} from generate_series(1, 3)`);
    await t.db.execute(sql`insert into objects (location_id) select ${aretsou} from generate_series(1, 2)`);
    await t.db.execute(sql`insert into objects (location_id) values (${sarti}), (null)`);
    const list = await top('en');
    expect(list.slice(0, 5).map((l) => [l.text, l.objects])).toEqual([
      // The municipality as its seat, with the whole municipality's count.
      ['Kalamaria, Thessaloniki', 5],
      ['Karabournaki, Kalamaria, Thessaloniki', 3],
      ['Aretsou, Kalamaria, Thessaloniki', 2],
      ['Sithonia, Chalkidiki', 1],
      ['Sarti, Sithonia, Chalkidiki', 1],
    ]);
    expect(list.length).toBe(10);
    expect(list[5]).toMatchObject({ text: 'Thessaloniki', objects: 0 });
    // A place renamed shows with its new name; the objects moved away, with their new counts.
    await t.db.execute(sql`update locations set text_en = 'Sarti Beach, Sithonia, Chalkidiki' where id = ${sarti}`);
    expect((await top('en')).slice(3, 5).map((l) => [l.text, l.objects])).toEqual([
      ['Sithonia, Chalkidiki', 1],
      ['Sarti Beach, Sithonia, Chalkidiki', 1],
    ]);
    await t.db.execute(sql`update objects set location_id = ${sarti} where location_id = ${aretsou}`);
    expect((await top('en')).slice(0, 3).map((l) => [l.text, l.objects])).toEqual([
      // Equal counts: the main markets first.
      ['Kalamaria, Thessaloniki', 3],
      ['Sithonia, Chalkidiki', 3],
      ['Karabournaki, Kalamaria, Thessaloniki', 3],
    ]);
    await t.db.execute(sql`update locations set text_en = 'Sarti, Sithonia, Chalkidiki' where id = ${sarti}`);
    await t.db.execute(sql`delete from objects`);
  });

  it('is staff-only', async () => {
    expect((await app.inject({ url: '/api/object/getTopLocations' })).statusCode).toBe(401);
    expect((await client.get('/api/object/getTopLocations')).statusCode).toBe(403);
  });
});

describe('helpers for other modules', () => {
  it('give a place with its sub-places, and the text of many rows in one statement', async () => {
    const kalamaria = await idOf('thessaloniki.kalamaria');
    const ids = await locationAndDescendants(t.db, kalamaria);
    expect(ids).toContain(kalamaria);
    expect(ids).toContain(await idOf('thessaloniki.kalamaria.aretsou'));
    expect(ids).not.toContain(await idOf('thessaloniki.thessaloniki.toumba'));
    expect(await locationAndDescendants(t.db, 2 ** 31 - 1)).toEqual([]);

    const rows = (
      await t.db.execute(sql`
        select v.id, ${locationText(sql`v.id`, 'ru')} as text, ${locationWithin(sql`v.id`, kalamaria)} as inside
        from (values (${await idOf('thessaloniki.kalamaria.aretsou')}::int), (${await idOf('chalkidiki.sithonia.sarti')}::int), (null::int)) as v(id)`)
    ).rows;
    expect(rows.map((r) => [r.text, r.inside])).toEqual([
      ['Арецу, Каламария, Салоники', true],
      ['Сарти, Ситония, Халкидики', false],
      [null, null],
    ]);
  });
  it('a place added any way is found under its parents at once, and under its new parent after a move', async () => {
    const kalamaria = await idOf('thessaloniki.kalamaria');
    const pylaia = await idOf('thessaloniki.pylaia-chortiatis');
    const added = (await t.db.execute(sql`insert into locations (parent_id, level, name_en, name_el, name_ru) values (${kalamaria}, 3, 'Nea Krini', 'Νέα Κρήνη', 'Неа-Крини') returning id, path`)).rows[0] as { id: number; path: number[] };
    expect(added.path).toEqual([await idOf('thessaloniki'), kalamaria, added.id]);
    expect(await locationAndDescendants(t.db, kalamaria)).toContain(added.id);
    await t.db.execute(sql`update locations set parent_id = ${pylaia} where id = ${added.id}`);
    expect(await locationAndDescendants(t.db, kalamaria)).not.toContain(added.id);
    expect(await locationAndDescendants(t.db, pylaia)).toContain(added.id);
  });
});
