import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../client.ts';
import { PLACES, type PlaceSeed } from './locations-data.ts';

type Flat = { key: string; parentKey: string | null; level: number; el: string; en: string; ru: string; lat: number; lon: number };

function flatten(places: PlaceSeed[], parentKey: string | null = null, level = 1): Flat[] {
  return places.flatMap((p) => [
    { key: p.key, parentKey, level, el: p.el, en: p.en, ru: p.ru, lat: p.lat, lon: p.lon },
    ...flatten(p.children ?? [], p.key, level + 1),
  ]);
}

const CULTURES = ['en', 'el', 'ru'] as const;
type Culture = (typeof CULTURES)[number];
type Stored = { id: number; parentId: number | null; level: number; en: string; el: string; ru: string };

/**
 * The text of a place in a language: its name, then its parents' names up to the prefecture
 * ("Καραμπουρνάκι, Καλαμαριά, Θεσσαλονίκη"). A parent named like the place below it is said once
 * (the area Kalamaria in the municipality Kalamaria: "Καλαμαριά, Θεσσαλονίκη"), and a place that
 * has a sub-place of its own name says what it is ("Καλαμαριά (δήμος), Θεσσαλονίκη"), so no two
 * places read alike.
 */
export function placeTexts(rows: Stored[], levelLabel: (culture: Culture, level: number) => string) {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const out = new Map<number, { path: number[]; texts: Record<Culture, string> }>();
  for (const r of rows) {
    const chain: Stored[] = [];
    for (let p: Stored | undefined = r; p && chain.length < 10; p = p.parentId === null ? undefined : byId.get(p.parentId)) chain.push(p);
    const texts = {} as Record<Culture, string>;
    for (const c of CULTURES) {
      const namesake = rows.some((x) => x.parentId === r.id && x[c] === r[c]);
      const parts = [namesake ? `${r[c]} (${levelLabel(c, r.level)})` : r[c]];
      let previous = r[c];
      for (const a of chain.slice(1)) {
        if (a[c] !== previous) parts.push(a[c]);
        previous = a[c];
      }
      texts[c] = parts.join(', ');
    }
    out.set(r.id, { path: chain.map((x) => x.id).reverse(), texts });
  }
  return out;
}

/**
 * The places of Thessaloniki and Chalkidiki, on every start: a place is added or brought up to date
 * by its stable key (ids never change, objects keep their place); then every place's path (ids from
 * the prefecture down) and its text in each language are recomputed. Places added by hand (no key)
 * are kept as they are, with their path and text computed the same way.
 */
export async function seedLocations(db: Db | Tx) {
  const flat = flatten(PLACES);
  for (const level of [1, 2, 3]) {
    const rows = flat.filter((p) => p.level === level);
    if (!rows.length) continue;
    await db.execute(sql`
      insert into locations (key, parent_id, level, name_el, name_en, name_ru, latitude, longitude)
      select r.key, p.id, r.level, r.el, r.en, r.ru, r.lat, r.lon
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(key text, "parentKey" text, level smallint, el text, en text, ru text, lat float8, lon float8)
      left join locations p on p.key = r."parentKey"
      on conflict (key) do update set parent_id = excluded.parent_id, level = excluded.level, name_el = excluded.name_el,
        name_en = excluded.name_en, name_ru = excluded.name_ru, latitude = excluded.latitude, longitude = excluded.longitude
      where (locations.parent_id, locations.level, locations.name_el, locations.name_en, locations.name_ru, locations.latitude, locations.longitude)
        is distinct from (excluded.parent_id, excluded.level, excluded.name_el, excluded.name_en, excluded.name_ru, excluded.latitude, excluded.longitude)`);
  }
  const stored = (await db.execute(sql`select id, parent_id as "parentId", level, name_en as en, name_el as el, name_ru as ru from locations`)).rows as Stored[];
  const labels = (await db.execute(sql`select key, culture, text from localization where key like 'location.level.%'`)).rows as { key: string; culture: string; text: string }[];
  const label = (culture: Culture, level: number) =>
    labels.find((l) => l.key === `location.level.${level}` && l.culture === culture)?.text ?? labels.find((l) => l.key === `location.level.${level}` && l.culture === 'en')?.text ?? '';
  const computed = placeTexts(stored, label);
  const updates = [...computed].map(([id, v]) => ({ id, path: v.path, en: v.texts.en, el: v.texts.el, ru: v.texts.ru }));
  if (!updates.length) return;
  await db.execute(sql`
    update locations l set path = array(select jsonb_array_elements_text(u.path)::int), text_en = u.en, text_el = u.el, text_ru = u.ru
    from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) as u(id int, path jsonb, en text, el text, ru text)
    where l.id = u.id and (l.path, l.text_en, l.text_el, l.text_ru) is distinct from (array(select jsonb_array_elements_text(u.path)::int), u.en, u.el, u.ru)`);
}
