import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { cultureOf, formatReferenceNumber, OWNER_REPORT_MAX_VIEWINGS, type TCulture, type TOwnerReportPublic, type TOwnerReportState } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { agencyToday, toLocalDateTime } from '../../lib/dates.ts';
import { objectTitle } from '../objects/objects.sql.ts';
import { agencyIdentity } from '../settings/site-settings.service.ts';

/**
 * What the owner's report reads (decision 087). Never a client's name, phone or e-mail: the viewings
 * are dates, reactions and the comments an agent shared; the enquiries are counts per month and
 * source (the source is a lead source's name when it is a company: a portal, the site, a partner
 * office; a person who sent the client, e.g. a friend, is a source without a name).
 */

type Row = Record<string, unknown>;
const day = (v: unknown) => (v === null || v === undefined ? null : String(v).slice(0, 10));

/** The owner's language: their account's, else Greek. */
export const ownerCulture = (language: string | null | undefined): TCulture => (language?.trim() ? cultureOf(language.trim().slice(0, 2).toLowerCase()) : 'el');

export type MandateRow = { id: number; kind: 'simple' | 'exclusive'; startDate: string; endDate: string; extendedUntil: string | null };

/** The property's mandate in force on the agency's day (the one ending last), or null. */
export async function mandateInForce(db: Db | Tx, objectId: number, timeZone: string): Promise<MandateRow | null> {
  const today = agencyToday(timeZone);
  const res = await db.execute(sql`select id, kind, start_date::text as "startDate", end_date::text as "endDate", extended_until::text as "extendedUntil"
    from object_mandates where object_id = ${objectId} and start_date <= ${today}::date and ${today}::date <= coalesce(extended_until, end_date)
    order by coalesce(extended_until, end_date) desc, id desc limit 1`);
  const r = res.rows[0] as MandateRow | undefined;
  return r ? { ...r, id: Number(r.id) } : null;
}

export type OwnerRow = { accountId: number; name: string; email: string | null; language: TCulture };

/** The owners who gave the mandate, with their first e-mail and language. */
export async function mandateOwners(db: Db | Tx, mandateId: number): Promise<OwnerRow[]> {
  const res = await db.execute(sql`select a.id, coalesce(a.display_name, '') as name, a.emails, a.language
    from object_mandate_owners o join accounts a on a.id = o.account_id where o.mandate_id = ${mandateId} and a.erased_on is null order by o.position, a.id`);
  return (res.rows as Row[]).map((r) => ({
    accountId: Number(r.id),
    name: String(r.name),
    email: ((r.emails as string[] | null) ?? []).map((e) => e.trim()).find(Boolean) ?? null,
    language: ownerCulture(r.language as string | null),
  }));
}

/** GET /api/ownerReport/{id}: the staff card's state. */
export async function readState(app: FastifyInstance, db: Db | Tx, objectId: number): Promise<TOwnerReportState> {
  const tz = app.config.timeZone;
  const mandate = await mandateInForce(db, objectId, tz);
  const owners = mandate ? await mandateOwners(db, mandate.id) : [];
  const [s] = (
    await db.execute(sql`select coalesce((select monthly from owner_report_settings where object_id = ${objectId}), false) as monthly,
      (select count(*)::int from owner_report_links where object_id = ${objectId} and revoked_on is null and expires_on > now()) as active,
      (select max(made_on) from owner_report_links where object_id = ${objectId}) as "lastLink",
      (select max(mailed_on) from owner_report_mailings where object_id = ${objectId}) as "lastMailed"`)
  ).rows as Row[];
  const views = await db.execute(sql`select v.id, v.date_of_viewing, vo.result, vo.comment, s.comment as shared
    from viewing_objects vo join viewings v on v.id = vo.viewing_id
    left join owner_report_shares s on s.viewing_id = vo.viewing_id and s.object_id = vo.object_id
    where vo.object_id = ${objectId} order by v.date_of_viewing desc nulls last, v.id desc limit ${OWNER_REPORT_MAX_VIEWINGS}`);
  const at = (v: unknown) => (v ? toLocalDateTime(new Date(v as string), tz) : null);
  return {
    objectId,
    mandateInForce: mandate !== null,
    monthly: s?.monthly === true,
    activeLinks: Number(s?.active ?? 0),
    lastLinkOn: at(s?.lastLink),
    lastMailedOn: at(s?.lastMailed),
    owners: owners.map((o) => ({ name: o.name, email: o.email, language: o.language })),
    viewings: (views.rows as Row[]).map((r) => ({
      viewingId: Number(r.id),
      date: at(r.date_of_viewing),
      result: r.result === null ? null : Number(r.result),
      comment: (r.comment as string | null)?.trim() || null,
      shared: (r.shared as string | null) ?? null,
    })),
  };
}

const PRICE_FIELDS = { salePrice: 'sale', rentPrice: 'rent', shortRentPrice: 'shortRent' } as const;

/** The owner's page: the property's report, read for the link's property only. */
export async function readReport(
  app: FastifyInstance,
  link: { objectId: number; language: TCulture; madeOn: Date; expiresOn: Date },
  mandate: MandateRow,
): Promise<TOwnerReportPublic> {
  const db = app.db;
  const tz = app.config.timeZone;
  const culture = link.language;
  const id = link.objectId;
  const [o] = (await db.execute(sql`select o.reference_number, ${objectTitle(culture, 'o')} as title from objects o where o.id = ${id}`)).rows as Row[];
  const viewings = await db.execute(sql`select v.date_of_viewing, vo.result, s.comment
    from viewing_objects vo join viewings v on v.id = vo.viewing_id
    left join owner_report_shares s on s.viewing_id = vo.viewing_id and s.object_id = vo.object_id
    where vo.object_id = ${id} and v.date_of_viewing is not null and v.date_of_viewing <= now()
    order by v.date_of_viewing desc, v.id desc limit ${OWNER_REPORT_MAX_VIEWINGS}`);
  const enquiries = await db.execute(sql`select to_char(l.created_on at time zone ${tz}, 'YYYY-MM') as month, case when src.is_company and src.erased_on is null then src.display_name end as source, count(*)::int as count
    from lead_objects lo join leads l on l.id = lo.lead_id and not l.draft left join accounts src on src.id = l.source
    where lo.object_id = ${id} group by 1, 2 order by 1 desc, 3 desc, 2`);
  const [sl] = (await db.execute(sql`select count(distinct shortlist_id)::int as n from shortlist_objects where object_id = ${id}`)).rows as Row[];
  const views = await db.execute(sql`select to_char(month, 'YYYY-MM') as month, views from object_site_views where object_id = ${id} order by month desc limit 24`);
  const keys = Object.keys(PRICE_FIELDS);
  const prices = await db.execute(sql`select l.date, l.data from action_log l
    where l.entity = 'Object' and l.entity_id = ${id} and l.action = 'Update' and l.data ?| ${sql.raw(`array[${keys.map((k) => `'${k}'`).join(',')}]`)}
    order by l.date desc, l.id desc limit 100`);
  const agency = await agencyIdentity(app);
  return {
    language: culture,
    agency: { name: agency.nameIn(culture, ''), logo: agency.logoPath, phone: agency.phone, email: agency.email, address: agency.address },
    property: { ref: formatReferenceNumber(Number(o?.reference_number ?? 0)), title: String(o?.title ?? '') },
    mandate: { kind: mandate.kind, startDate: mandate.startDate, endDate: mandate.endDate, extendedUntil: mandate.extendedUntil },
    madeOn: toLocalDateTime(link.madeOn, tz)!,
    expiresOn: toLocalDateTime(link.expiresOn, tz)!,
    viewings: (viewings.rows as Row[]).map((r) => ({
      date: toLocalDateTime(new Date(r.date_of_viewing as string), tz),
      result: r.result === null ? null : Number(r.result),
      comment: (r.comment as string | null) ?? null,
    })),
    enquiries: (enquiries.rows as Row[]).map((r) => ({ month: String(r.month), source: (r.source as string | null) ?? null, count: Number(r.count) })),
    shortlists: Number(sl?.n ?? 0),
    siteViews: (views.rows as Row[]).map((r) => ({ month: String(r.month), views: Number(r.views) })),
    prices: (prices.rows as Row[]).flatMap((r) => {
      const data = r.data as Record<string, unknown>;
      const date = day(toLocalDateTime(new Date(r.date as string), tz))!;
      return Object.entries(PRICE_FIELDS).flatMap(([field, service]) => {
        if (!(field in data)) return [];
        const v = data[field];
        return [{ date, service, price: v === null || v === undefined || v === '' ? null : Number(v) }];
      });
    }),
  };
}
