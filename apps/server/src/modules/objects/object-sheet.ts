import { sql } from 'drizzle-orm';
import { ASSIGNMENT_PARENTS, OBJECT_FEATURE_GROUPS, OBJECT_TITLE_ORDER, type TCulture, type TObjectSheetAnswer } from '@crm/contract';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { publicSelect, toPublicObject } from '../publishing/public.view.ts';
import { area, distance, longDate, money } from '../publishing/public.pages.ts';
import { agencyIdentity, type AppLike } from '../settings/site-settings.service.ts';
import type { T } from '../../lib/i18n.ts';


/** The sheet's own words, printed in its language (the page's options speak the reader's). */
const LABELS = {
  price: 'publishing.object.price',
  facts: 'publishing.object.facts',
  features: 'publishing.object.features',
  description: 'publishing.object.description',
  was: 'publishing.object.was',
  phone: 'publishing.site.phone',
  email: 'publishing.site.email',
  licence: 'publishing.site.licence',
  taxNumber: 'publishing.site.taxNumber',
  taxOffice: 'publishing.site.taxOffice',
  address: 'fields.object.address',
  sharedExpenses: 'fields.object.averageMonthlySharedExpenses',
  agent: 'objects.sheet.agent',
  photo: 'objects.sheet.photo',
} as const;

const AREAS = new Set(['area', 'lotArea', 'buildableArea', 'sizeOfBalconies']);

/** One fact's value as the sheet prints it: areas in m², distances in m/km, dates in full, floor 0 the ground floor. */
export function sheetFactText(key: string, value: string | number, culture: TCulture, t: T): string {
  if (AREAS.has(key)) return area(Number(value), t, culture);
  if (key === 'distanceFromSea' || key === 'distanceFromAirport') return distance(Number(value), culture, t);
  if (key === 'dateAvailable') return longDate(culture, String(value));
  if (key === 'floor' && Number(value) === 0) return t('publishing.object.groundFloor');
  return String(value);
}

/**
 * The text written in the sheet's language: the Russian one on a Russian sheet, the English one on an
 * English sheet, the main one on a Greek sheet; the others in OBJECT_TITLE_ORDER when that one is empty.
 */
function inLanguage(r: Record<string, unknown>, culture: TCulture, main: 'title' | 'description'): string {
  const fields = OBJECT_TITLE_ORDER[culture].map((f) => `${main}${f.slice('title'.length)}`);
  for (const f of fields) {
    const v = r[f];
    if (typeof v === 'string' && v.trim()) return v.trim();
  }
  return '';
}

/**
 * The property sheet: the public site's allow-listed columns of one property (published or not),
 * the agency's details, the first assigned employee as the agent, else the one who prints it (first
 * name first, as a client reads it, not the office's "Surname Name"; never a sign-in name), and the street address only
 * when the agent asks for it. Every text in `culture`.
 */
export async function objectSheet(app: AppLike, id: number, culture: TCulture, t: T, withAddress: boolean, userId?: number): Promise<TObjectSheetAnswer> {
  const db: Db = app.db;
  const rows = await db.execute(sql`
    select ${publicSelect(culture)},
      case when ${withAddress} then o.address end as "sheetAddress", case when ${withAddress} then o.zip_code end as "sheetZip",
      (select coalesce(array_agg(f.id order by f.sort_order, f.id), '{}') from files f
        where f.parent_type = 1 and f.parent_id = o.id and f.type = 'image' and f.web_name is not null) as "photoIds"
    from objects o left join locations pl on pl.id = o.location_id where o.id = ${id}`);
  const r = rows.rows[0] as Record<string, unknown> | undefined;
  if (!r) throw notFound('objects.notFound');
  // The property's first assigned agent; where none is, the agent who prints it (their own account).
  // In a language other than Greek, a Greek-lettered name in the Latin letters the account holds.
  const own = sql`nullif(concat_ws(' ', nullif(trim(a.first_name), ''), nullif(trim(a.last_name), '')), '')`;
  const latin = sql`case when nullif(trim(a.first_name_eng), '') is not null and nullif(trim(a.last_name_eng), '') is not null then concat_ws(' ', trim(a.first_name_eng), trim(a.last_name_eng)) end`;
  const person = culture === 'el' ? sql`coalesce(${own}, a.display_name)` : sql`coalesce(case when ${own} ~ '[Ά-ώ]' then ${latin} end, ${own}, a.display_name)`;
  const agentRows = await db.execute(sql`
    select name, phone, email from (
      select 0 as rank, s.created_on, s.id, ${person} as name, a.phones[1] as phone, a.emails[1] as email from assignments s join accounts a on a.id = s.account_id
      where s.parent = ${ASSIGNMENT_PARENTS.object} and s.parent_id = ${id} and a.is_employe
      union all
      select 1, null, null, ${person}, a.phones[1], a.emails[1] from users u join accounts a on a.id = u.account_id where u.id = ${userId ?? null}::int
    ) x where name is not null order by rank, created_on, id limit 1`);
  const agent = agentRows.rows[0] as { name: string; phone: string | null; email: string | null } | undefined;
  const site = await agencyIdentity(app);
  // The public view's facts and prices, without its address (the property's own choice for the website).
  const o = toPublicObject({ ...r, address: null, zipCode: null }, culture, t);
  const address = [r.sheetAddress, r.sheetZip].filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim()).join(', ');
  const features = new Set(o.features);
  return {
    id,
    culture,
    labels: { ...Object.fromEntries(Object.entries(LABELS).map(([k, key]) => [k, t(key)])), ref: t('publishing.object.ref', { ref: o.ref }) },
    agency: {
      name: site.nameIn(culture, t('publishing.site.name')), phone: site.phone, email: site.email, address: site.address,
      licence: site.licence, taxNumber: site.taxNumber, taxOffice: site.taxOffice, website: site.website, logo: site.logoPath,
    },
    ref: o.ref,
    title: inLanguage(r, culture, 'title'),
    type: o.type,
    place: o.place,
    address: address || null,
    prices: o.prices.map((p) => ({
      service: p.service,
      label: t(`publishing.service.${p.service}`),
      price: money(p.price),
      was: p.was === null ? null : money(p.was),
      per: p.service === 'sale' ? null : t(`publishing.per.${p.service}`),
    })),
    sharedExpenses: o.sharedExpenses === null ? null : money(o.sharedExpenses),
    facts: o.facts
      .filter((f) => f.key !== 'zipCode')
      .map((f) => ({ key: f.key, label: t(`fields.object.${f.key}`), value: sheetFactText(f.key, f.value, culture, t) })),
    featureGroups: Object.entries(OBJECT_FEATURE_GROUPS)
      .map(([key, fields]) => ({ key, title: t(`objects.group.${key}`), items: fields.filter((f) => features.has(f)).map((f) => t(`fields.object.${f}`)) }))
      .filter((g) => g.items.length > 0),
    description: inLanguage(r, culture, 'description'),
    photos: ((r.photoIds as number[] | null) ?? []).map(Number),
    agent: agent ? { name: agent.name, phone: agent.phone, email: agent.email } : null,
  };
}
