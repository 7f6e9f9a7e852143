import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { branches } from '../schema/index.ts';
import { seedLocations } from './locations.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const LOCALES_DIR = path.join(here, 'locales');

/** Texts of each culture: one file per key namespace, `<namespace>.<culture>.json` (`objects.el.json` holds `objects.*`). */
export function readLocaleFiles(): { culture: 'en' | 'el' | 'ru'; texts: Record<string, string> }[] {
  const names = fs.readdirSync(LOCALES_DIR).filter((f) => f.endsWith('.json')).sort();
  return (['en', 'el', 'ru'] as const).map((culture) => {
    const texts: Record<string, string> = {};
    for (const f of names.filter((n) => n === `${culture}.json` || n.endsWith(`.${culture}.json`))) {
      Object.assign(texts, JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, f), 'utf8')) as Record<string, string>);
    }
    return { culture, texts };
  });
}

/**
 * Loads the texts shipped in the repository. A text that staff changed by import (custom) is
 * left alone; shipped texts are brought up to date on every start.
 */
export async function seedLocalization(db: Db) {
  const rows = readLocaleFiles().flatMap(({ culture, texts }) => Object.entries(texts).map(([key, text]) => ({ key, culture, text })));
  if (!rows.length) return;
  await db.execute(sql`
    insert into localization (key, culture, text)
    select r.key, r.culture, r.text from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(key text, culture text, text text)
    on conflict (key, culture) do update set text = excluded.text, modified_on = now()
    where localization.custom = false and localization.text is distinct from excluded.text`);
}

export async function seedBranches(db: Db) {
  await db.insert(branches).values({ id: 1, nameKey: 'branch.1' }).onConflictDoNothing();
}

export async function seedBase(db: Db) {
  await seedBranches(db);
  await seedLocalization(db);
  await seedLocations(db);
}
