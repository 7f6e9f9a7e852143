import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp } from '../../../test/harness.ts';
import { createDemoApp } from '../../../test/demo-app.ts';
import { seedDemo } from './demo.ts';

describe('demo properties', async () => {
  const { t, user: admin, q } = await createDemoApp('admin');

  it('loads about 150 properties of every kind, in places of Thessaloniki and Chalkidiki', async () => {
    const [c] = await q<Record<string, number>>(sql`select count(*)::int as objects,
      count(*) filter (where object_sub_type_id = 1 and l.key like 'thessaloniki.kalamaria.%')::int as kalamaria_flats,
      count(*) filter (where object_sub_type_id = 3 and l.key like '%panorama')::int as panorama_maisonettes,
      count(*) filter (where object_sub_type_id = 13 and l.key like 'chalkidiki.kassandra.%')::int as kassandra_plots,
      count(*) filter (where object_sub_type_id = 8 and l.key like 'thessaloniki.thessaloniki.%')::int as centre_shops,
      count(*) filter (where object_sub_type_id = 5 and l.key like 'chalkidiki.sithonia.%')::int as sithonia_villas,
      count(*) filter (where for_sale and sale_price > 0)::int as for_sale,
      count(*) filter (where for_rent and rent_price > 0)::int as for_rent,
      count(*) filter (where for_short_rent and short_rent_price > 0)::int as short_let,
      count(*) filter (where o.location_id is null or o.latitude is null or o.title is null or o.description is null)::int as incomplete,
      count(*) filter (where (o.object_sub_type_id <= 6) <> (o.sub_type_object_type_id = 1))::int as wrong_type,
      count(*) filter (where not o.display_coordinates and (o.map_circle_radius is null or o.map_circle_radius % 10 <> 0))::int as no_circle,
      count(*) filter (where 6371 * 2 * asin(sqrt(power(sin(radians(o.latitude - l.latitude) / 2), 2) + cos(radians(l.latitude)) * cos(radians(o.latitude)) * power(sin(radians(o.longitude - l.longitude) / 2), 2))) > 3)::int as far,
      count(*) filter (where o.title_ru is not null)::int as russian,
      count(*) filter (where o.title_en is null or o.description_en is null or o.title_en ~ '[α-ωΑ-Ω]' or o.description_en ~ '[α-ωΑ-Ω]')::int as not_in_english,
      count(*) filter (where o.description ~ 'Features|m²')::int as english_in_greek
      from objects o join locations l on l.id = o.location_id`);
    expect(c!.objects).toBeGreaterThanOrEqual(140);
    expect(c!.objects).toBeLessThanOrEqual(170);
    for (const k of ['kalamaria_flats', 'panorama_maisonettes', 'kassandra_plots', 'centre_shops', 'sithonia_villas', 'russian']) expect(c![k], k).toBeGreaterThan(0);
    // Every one has its English title and description (no Greek in them), and the Greek ones no English.
    expect([c!.not_in_english, c!.english_in_greek]).toEqual([0, 0]);
    expect(c!.for_sale).toBeGreaterThan(80);
    expect(c!.for_rent).toBeGreaterThan(15);
    expect(c!.short_let).toBeGreaterThan(5);
    expect([c!.incomplete, c!.wrong_type, c!.no_circle, c!.far]).toEqual([0, 0, 0, 0]);
  });

  it('gives every property its owner among the demo owners, and keeps owner, search text and keys in step', async () => {
    const [c] = await q<Record<string, number>>(sql`select
      count(*) filter (where o.owner_id is null)::int as without_owner,
      count(*) filter (where not a.is_owner)::int as owner_not_owner,
      count(*) filter (where o.search_text not like '%' || crm_search_norm(a.display_name) || '%')::int as search_text_stale,
      count(*) filter (where o.has_key <> exists (select 1 from object_keys k where k.object_id = o.id and k.received is not null and k.given_away is null))::int as key_stale,
      count(*) filter (where o.has_key)::int as with_key
      from objects o left join accounts a on a.id = o.owner_id`);
    expect(c).toMatchObject({ without_owner: 0, owner_not_owner: 0, search_text_stale: 0, key_stale: 0 });
    expect(c!.with_key).toBeGreaterThan(20);
    const [holders] = await q<{ wrong: number }>(sql`select count(*)::int as wrong from object_keys k join accounts a on a.id = k.account_id where not a.is_employe`);
    expect(holders!.wrong).toBe(0);
  });

  it('has tenants with current and past contracts, and holiday guests, with their dates, prices and payment days', async () => {
    const [c] = await q<Record<string, number>>(sql`select
      count(*) filter (where relation = 4 and end_date >= current_date and start_date <= current_date)::int as current,
      count(*) filter (where relation = 4 and end_date < current_date)::int as past,
      count(*) filter (where relation = 7 and end_date < current_date)::int as guests,
      count(*) filter (where relation in (4, 7) and (start_date is null or end_date is null or end_date <= start_date or price is null))::int as broken,
      count(*) filter (where relation = 4 and rent_payment_day not in (-3, 0, 1, 5, 10))::int as bad_day,
      count(*) filter (where relation = 4 and end_date < date_trunc('year', current_date))::int as ended_before_this_year
      from object_accounts`);
    expect(c!.current).toBeGreaterThan(5);
    expect(c!.past).toBeGreaterThan(5);
    expect(c!.guests).toBeGreaterThan(3);
    expect(c!.ended_before_this_year).toBeGreaterThan(0);
    expect([c!.broken, c!.bad_day]).toEqual([0, 0]);
    // a rented property's current contract is not overlapped by its previous one
    const [overlap] = await q<{ n: number }>(sql`select count(*)::int as n from object_accounts a join object_accounts b
      on a.object_id = b.object_id and a.relation = 4 and b.relation = 4 and a.account_id <> b.account_id
      and a.start_date < b.start_date and a.end_date > b.start_date`);
    expect(overlap!.n).toBe(0);
  });

  it('has photos with thumbnails, served from the agency\'s store', async () => {
    const [c] = await q<Record<string, number>>(sql`select count(*)::int as photos, count(distinct parent_id)::int as objects,
      count(*) filter (where thumb_name is null or web_name is null or type <> 'image')::int as without_copies
      from files where parent_type = 1`);
    expect(c!.photos).toBeGreaterThan(400);
    expect(c!.objects).toBeGreaterThan(140);
    expect(c!.without_copies).toBe(0);
    const [photo] = await q<{ id: number; systemName: string }>(sql`select id, system_name as "systemName" from files where parent_type = 1 order by id limit 1`);
    const thumb = await admin.get(`/api/files/${photo!.id}?size=thumb`);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect(thumb.rawPayload.length).toBeGreaterThan(1000);
    const original = await admin.get(`/api/files/${photo!.systemName}`);
    expect(original.headers['content-type']).toBe('image/jpeg');
    // the shared pictures are made once per data directory
    expect(fs.readdirSync(path.join(t.dataDir, 'demo-photos')).length).toBeLessThan(80);
  });

  it('is loaded once', async () => {
    const before = await q(sql`select (select count(*) from objects) as o, (select count(*) from files) as f, (select count(*) from object_accounts) as l`);
    await seedDemo(t.app);
    expect(await q(sql`select (select count(*) from objects) as o, (select count(*) from files) as f, (select count(*) from object_accounts) as l`)).toEqual(before);
  });
});

describe('an agency with its own records', () => {
  it('gets no demo properties', async () => {
    const t = await createTestApp();
    await t.db.execute(sql`insert into accounts (first_name, last_name, is_owner) values ('Ελένη', 'Καραγιάννη', true)`);
    await seedDemo(t.app);
    const [row] = (await t.db.execute(sql`select count(*)::int as n from objects`)).rows as { n: number }[];
    expect(row!.n).toBe(0);
  });
});
