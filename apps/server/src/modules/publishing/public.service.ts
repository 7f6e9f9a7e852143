import type { FastifyInstance } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import { MAX_AMOUNT_NUMBER, OBJECT_SUBTYPES, PUBLIC_SERVICES, formatReferenceNumber, isPublicKind, type TCulture, type TPublicService } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { accounts, leadObjects, leads } from '../../db/schema/index.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { createAlert } from '../alerts/alerts.create.ts';
import { PUBLIC_WHERE, publicSelect, toPublicObject, type TPublicObject } from './public.view.ts';
import { locationWithin } from '../locations/locations.service.ts';
import type { T } from '../../lib/i18n.ts';


export const PUBLIC_PAGE_SIZE = 12;

/** The public list's filters, as read from the address (anything unreadable is left out). */
export type TPublicFilter = {
  service?: TPublicService;
  /** 't1'..'t4' a type, 's1'..'s17' a subtype */
  kind?: string;
  place?: number;
  priceMin?: number;
  priceMax?: number;
  bedrooms?: number;
  sort: 'new' | 'priceAsc' | 'priceDesc';
  page: number;
  /** Rows a page (the site's pages: PUBLIC_PAGE_SIZE). */
  perPage?: number;
};

const int = (v: unknown, min: number, max: number) => {
  if (typeof v !== 'string' || !/^\d{1,10}$/.test(v.trim())) return undefined;
  const n = Number(v);
  return n >= min && n <= max ? n : undefined;
};

/**
 * A price as a visitor types it: 200000, 200.000 or 200 000 (Greek and Russian group thousands with
 * a dot or a space), 200,000 (English); a value written otherwise is not a price.
 */
const price = (v: unknown) => {
  if (typeof v !== 'string') return undefined;
  const typed = v.trim().replace(/[\s\u00a0\u202f€]/g, '');
  const plain = /^\d{1,3}([.,])\d{3}(\1\d{3})*$/.test(typed) ? typed.replace(/[.,]/g, '') : typed;
  return int(plain, 0, 1e10);
};

/** Reads the filter from the query string; a bad value is ignored, never an error page. */
export function readFilter(q: Record<string, unknown>): TPublicFilter {
  const service = (PUBLIC_SERVICES as readonly string[]).includes(q.service as string) ? (q.service as TPublicService) : undefined;
  const kind = typeof q.kind === 'string' && isPublicKind(q.kind) ? q.kind : undefined;
  const sort = q.sort === 'priceAsc' || q.sort === 'priceDesc' ? q.sort : 'new';
  return {
    service,
    kind,
    place: int(q.place, 1, 2147483647),
    priceMin: price(q.priceMin),
    priceMax: price(q.priceMax),
    bedrooms: int(q.bedrooms, 0, 50),
    sort,
    page: int(q.page, 1, 100000) ?? 1,
  };
}

const PRICE: Record<TPublicService, SQL> = {
  sale: sql.raw('coalesce(o.sale_price_with_discount, o.sale_price)'),
  rent: sql.raw('coalesce(o.rent_price_with_discount, o.rent_price)'),
  shortRent: sql.raw('o.short_rent_price'),
};
const FLAG: Record<TPublicService, SQL> = { sale: sql.raw('o.for_sale'), rent: sql.raw('o.for_rent'), shortRent: sql.raw('o.for_short_rent') };

function whereOf(f: TPublicFilter): SQL {
  const parts: SQL[] = [PUBLIC_WHERE];
  if (f.service) parts.push(FLAG[f.service]);
  if (f.kind?.startsWith('t')) parts.push(sql`o.sub_type_object_type_id = ${Number(f.kind.slice(1))}`);
  if (f.kind?.startsWith('s')) parts.push(sql`o.object_sub_type_id = ${Number(f.kind.slice(1))}`);
  if (f.place) parts.push(locationWithin(sql`o.location_id`, f.place));
  // A price range is of the chosen service's price, else of any price the object is offered at (a
  // price left from a service it is no longer offered for, which its card does not show, does not count).
  if (f.priceMin !== undefined || f.priceMax !== undefined) {
    const within = (svc: TPublicService) =>
      sql.join([FLAG[svc], ...(f.priceMin !== undefined ? [sql`${PRICE[svc]} >= ${f.priceMin}`] : []), ...(f.priceMax !== undefined ? [sql`${PRICE[svc]} <= ${f.priceMax}`] : [])], sql` and `);
    parts.push(f.service ? within(f.service) : sql`((${within('sale')}) or (${within('rent')}) or (${within('shortRent')}))`);
  }
  if (f.bedrooms !== undefined) parts.push(sql`o.bedrooms >= ${f.bedrooms}`);
  return sql.join(parts, sql` and `);
}

/** The published objects of one page of the public list, and how many match. */
export async function listPublic(db: Db, f: TPublicFilter, culture: TCulture, t: T): Promise<{ items: TPublicObject[]; total: number }> {
  const where = whereOf(f);
  const perPage = f.perPage ?? PUBLIC_PAGE_SIZE;
  // Sorted by the price shown first on its card: the chosen service's, else the sale, rent or
  // short-stay price of a service it is offered for.
  const offered = (svc: TPublicService) => sql`case when ${FLAG[svc]} then ${PRICE[svc]} end`;
  const price = f.service ? PRICE[f.service] : sql`coalesce(${offered('sale')}, ${offered('rent')}, ${offered('shortRent')})`;
  const order =
    f.sort === 'priceAsc' ? sql`${price} asc nulls last, o.id` : f.sort === 'priceDesc' ? sql`${price} desc nulls last, o.id` : sql`o.last_update desc nulls last, o.id desc`;
  const offset = (f.page - 1) * perPage;
  const page = () =>
    db.execute(sql`
      select ${publicSelect(culture)} from objects o left join locations pl on pl.id = o.location_id
      where ${where} order by ${order} limit ${perPage} offset ${offset}`);
  const count = async () => ((await db.execute(sql`select count(*)::int as n from objects o where ${where}`)).rows[0] as { n: number }).n;
  // The first page and its count side by side; a later one only when it is not past the end (a
  // page number typed or crawled far past the last page costs the count, not a walk of every row).
  const [rows, total] = offset === 0 ? await Promise.all([page(), count()]) : await count().then(async (n) => [n > offset ? await page() : undefined, n] as const);
  return {
    items: ((rows?.rows ?? []) as Record<string, unknown>[]).map((r) => toPublicObject(r, culture, t)),
    total,
  };
}

/** "0042", "42" or "ref0042" → 42. */
export function parsePublicRef(s: string): number | undefined {
  const m = /^(?:ref)?(\d{1,9})$/i.exec(s.trim());
  return m ? Number(m[1]) : undefined;
}

/** One published object by reference number; undefined when there is none the public may see. */
export async function getPublic(db: Db, ref: number, culture: TCulture, t: T): Promise<(TPublicObject & { id: number }) | undefined> {
  const rows = await db.execute(sql`
    select ${publicSelect(culture)} from objects o left join locations pl on pl.id = o.location_id
    where o.reference_number = ${ref} and ${PUBLIC_WHERE}`);
  const r = rows.rows[0] as Record<string, unknown> | undefined;
  return r ? { ...toPublicObject(r, culture, t), id: r.id as number } : undefined;
}

/** Every published object, a batch at a time, in reference-number order (the portal feed). */
export async function* allPublic(db: Db, culture: TCulture, t: T, batch = 500): AsyncGenerator<TPublicObject> {
  let after = 0;
  for (;;) {
    const rows = await db.execute(sql`
      select ${publicSelect(culture)} from objects o left join locations pl on pl.id = o.location_id
      where ${PUBLIC_WHERE} and o.reference_number > ${after} order by o.reference_number limit ${batch}`);
    const list = rows.rows as Record<string, unknown>[];
    for (const r of list) yield toPublicObject(r, culture, t);
    if (list.length < batch) return;
    after = list[list.length - 1]!.reference_number as number;
  }
}

/** A choice of the place filter: a place and its name as the list shows it. */
export type TPublicPlace = { id: number; text: string };
/** A region and its places (`region` null: places of no region, listed on their own). */
export type TPublicPlaceGroup = { region: string | null; places: TPublicPlace[] };

type PlaceRow = { id: number; text: string; level: number; parentId: number | null };

/**
 * The places (regions and their municipalities or areas) that have published objects, for the
 * place filter, in their hierarchy: each region, as "Thessaloniki – all areas" first, then its own
 * places, names in the reader's alphabetical order. The page lists a region's places under its
 * name (an optgroup), so that a chosen place reads as its name alone, never indented. A place
 * whose name another place in the list has too is told apart by its region's name ("Agia Triada
 * (Chalkidiki)").
 */
export async function publicPlaces(db: Db, culture: TCulture, t: T): Promise<TPublicPlaceGroup[]> {
  const name = sql.raw(`l.name_${culture}`);
  const rows = (
    await db.execute(sql`
    select l.id, ${name} as text, l.level, l.parent_id as "parentId" from locations l
    where l.level between 1 and 2 and exists (
      select 1 from objects o join locations ol on ol.id = o.location_id where ${PUBLIC_WHERE} and ol.path @> array[l.id])`)
  ).rows as PlaceRow[];
  const collator = new Intl.Collator(culture, { sensitivity: 'base' });
  const byName = (a: PlaceRow, b: PlaceRow) => collator.compare(a.text, b.text) || a.id - b.id;
  const regions = rows.filter((r) => r.level === 1).sort(byName);
  const regionIds = new Set(regions.map((r) => r.id));
  const childrenOf = (id: number | null) => rows.filter((r) => r.level === 2 && r.parentId === id).sort(byName);
  // Places whose region has no published object of its own (or no region) come last, on their own.
  const orphans = rows.filter((r) => r.level === 2 && (r.parentId === null || !regionIds.has(r.parentId))).sort(byName);
  const same = (a: string, b: string) => collator.compare(a, b) === 0;
  const out: TPublicPlaceGroup[] = regions.map((region) => ({
    region: region.text,
    places: [
      { id: region.id, text: t('publishing.filter.placeAll', { place: region.text }) },
      ...childrenOf(region.id).map((c) => ({ id: c.id, text: rows.some((o) => o.id !== c.id && o.level === 2 && same(o.text, c.text)) ? `${c.text} (${region.text})` : c.text })),
    ],
  }));
  return orphans.length ? [...out, { region: null, places: orphans.map((o) => ({ id: o.id, text: o.text })) }] : out;
}

/** A place's name in the reader's language (the filtered list's title), or undefined. */
export async function publicPlaceName(db: Db, culture: TCulture, id: number): Promise<string | undefined> {
  const rows = await db.execute(sql`select ${sql.raw(`name_${culture}`)} as name from locations where id = ${id}`);
  return (rows.rows[0] as { name: string } | undefined)?.name;
}

/** The subtypes grouped by type, for the type filter. */
export const kindOptions = (t: T) =>
  [1, 2, 3, 4].map((type) => ({
    value: `t${type}`,
    text: t(`objects.list.objectTypes.${type}`),
    children: OBJECT_SUBTYPES.filter((s) => s.parent === type).map((s) => ({ value: `s${s.value}`, text: t(`objects.list.objectSubTypes.${s.value}`) })),
  }));

/**
 * A published object's photo by the name in its public address: the stored name of one of the
 * copies made on upload (`copy`: that name), or, in an address made before the copies named them,
 * the original's name (`copy` null: the caller sends the visitor to the copy's own address).
 */
export async function publicPhoto(db: Db, name: string): Promise<{ copy: string | null; web: string; thumb: string } | undefined> {
  const rows = await db.execute(sql`
    select case when f.web_name = ${name} or f.thumb_name = ${name} then ${name} end as copy, f.web_name as web, coalesce(f.thumb_name, f.web_name) as thumb
    from files f join objects o on o.id = f.parent_id
    where (f.web_name = ${name} or f.thumb_name = ${name} or f.system_name = ${name})
      and f.parent_type = 1 and f.type = 'image' and f.web_name is not null and ${PUBLIC_WHERE}
    limit 1`);
  return rows.rows[0] as { copy: string | null; web: string; thumb: string } | undefined;
}

/**
 * Enquiries an hour (decision 022): from one connection (an office or a family may share one address,
 * and a phone network many), from one connection about one property (a robot that changes its
 * e-mail), and from one e-mail address (a buyer asks about several properties at a sitting).
 */
export const ENQUIRY_LIMITS = { perAddress: 20, perAddressAndProperty: 5, perEmail: 10 } as const;

/**
 * Object `id` (an SQL expression) has a publish or a withdrawal from the site in its history: a
 * withdrawal, or a refusal that took it off the site (published from true to false).
 */
const publishedInHistory = (id: SQL) =>
  sql`exists (select 1 from action_log l where l.entity = 'Object' and l.entity_id = ${id}
    and (l.action in ('Publish', 'Unpublish') or (l.action = 'PublishRefused' and l.data->'published'->>'from' = 'true')))`;

/**
 * Whether an enquiry naming this reference number is taken: a property on the site now, or one that
 * was on it at some time and was withdrawn, sold or deleted since (its page may still be open
 * somewhere). A property never on the site (a draft) is answered as a number never given: the site
 * says nothing of what the office holds. "Was on it": its published flag (set by publishing, kept
 * until a withdrawal), a publish or withdrawal in its history, or, deleted, its deletion's record
 * (which says whether it was published then; found by its reference number, migration 0053).
 */
export async function enquiryTaken(db: Db | Tx, ref: number): Promise<boolean> {
  const r = await db.execute(sql`
    select exists (select 1 from objects o where o.reference_number = ${ref} and (o.published or ${publishedInHistory(sql`o.id`)}))
      or exists (select 1 from action_log d where d.entity = 'Object' and d.action = 'Delete' and d.data->>'referenceNumber' = ${formatReferenceNumber(ref)}
        and (d.data->>'published' = 'true' or ${publishedInHistory(sql`d.entity_id`)})) as taken`);
  return (r.rows[0] as { taken: boolean }).taken === true;
}

/** The list filter that finds what a property no longer on the site offered: its type, its first service, its region. */
export type TSimilarFilter = { service?: TPublicService; kind?: string; place?: number };

/**
 * For the page of a property that was on the site and is not now (withdrawn, sold, refused or
 * deleted): up to `limit` published properties like it, newest first (same type, same service, same
 * region; those of its own subtype and place first), and the list filter that shows them all. What it
 * offered is read from the property, or, deleted, from its deletion's record (objects.service.ts);
 * a deletion recorded without it gets the newest properties and no filter.
 */
export async function similarPublic(db: Db, ref: number, culture: TCulture, t: T, limit = 4): Promise<{ items: TPublicObject[]; filter: TSimilarFilter }> {
  const [was] = (
    await db.execute(sql`
      select type_id, sub_id, location_id, region, service from (
        select o.sub_type_object_type_id as type_id, o.object_sub_type_id as sub_id, o.location_id,
          case when o.for_sale then 'sale' when o.for_rent then 'rent' when o.for_short_rent then 'shortRent' end as service, 1 as pick
        from objects o where o.reference_number = ${ref}
        union all
        select (d.data->'listing'->>'typeId')::int, (d.data->'listing'->>'subTypeId')::int, (d.data->'listing'->>'locationId')::int,
          case when (d.data->'listing'->>'forSale')::boolean then 'sale' when (d.data->'listing'->>'forRent')::boolean then 'rent'
            when (d.data->'listing'->>'forShortRent')::boolean then 'shortRent' end, 2
        from action_log d where d.entity = 'Object' and d.action = 'Delete' and d.data->>'referenceNumber' = ${formatReferenceNumber(ref)}
      ) w left join lateral (select l.path[1] as region from locations l where l.id = w.location_id) r on true
      order by pick limit 1`)
  ).rows as { type_id: number | null; sub_id: number | null; location_id: number | null; region: number | null; service: TPublicService | null }[];
  const filter: TSimilarFilter = {
    service: was?.service ?? undefined,
    kind: was?.type_id ? `t${was.type_id}` : undefined,
    place: was?.region ?? undefined,
  };
  const where = sql.join([whereOf({ ...filter, sort: 'new', page: 1 }), sql`o.reference_number <> ${ref}`], sql` and `);
  const rows = await db.execute(sql`
    select ${publicSelect(culture)} from objects o left join locations pl on pl.id = o.location_id
    where ${where}
    order by (o.object_sub_type_id is not distinct from ${was?.sub_id ?? null}::int) desc, (o.location_id is not distinct from ${was?.location_id ?? null}::int) desc,
      o.last_update desc nulls last, o.id desc
    limit ${limit}`);
  return { items: (rows.rows as Record<string, unknown>[]).map((r) => toPublicObject(r, culture, t)), filter };
}

/** An identical enquiry (same e-mail, object and words) within this many minutes is the same one. */
export const ENQUIRY_REPEAT_MINUTES = 10;

export type TEnquiry = { name: string; email: string; phone: string | null; message: string };

type Price = string | number | null;
type EnquiredObject = {
  id: number;
  for_sale: boolean | null;
  for_rent: boolean | null;
  for_short_rent: boolean | null;
  listed: boolean;
  object_sub_type_id: number | null;
  location_id: number | null;
  sale_price: Price;
  sale_price_with_discount: Price;
  rent_price: Price;
  rent_price_with_discount: Price;
  short_rent_price: Price;
};

/** The budget an enquiry's lead gets around the price the visitor saw: from 80 % to 110 % of it. */
export const ENQUIRY_BUDGET = { under: 0.8, over: 1.1 } as const;

/** Rounded to three significant figures (148 000 and 204 000 in steps of 1 000, 560 and 770 in whole euros), never to cents. */
function roundBudget(value: number, direction: 'down' | 'up'): number {
  const step = Math.max(10 ** (Math.floor(Math.log10(value)) - 2), 1);
  // To the cent first: 700 × 1.1 is 770.0000000000001 in floating point, and must stay 770.
  const steps = Math.round((value / step) * 100) / 100;
  return (direction === 'down' ? Math.floor(steps) : Math.ceil(steps)) * step;
}

/**
 * A service's budget from the asked price: the price shown on the site (the discounted one when
 * lower, as the page shows it), from 80 % to 110 % of it, rounded outwards. The top never falls
 * under the price the matching compares (the undiscounted one), so the property asked about fits
 * its own lead, nor goes over the largest amount stored (MAX_AMOUNT_NUMBER). Null for a service without a price.
 */
export function enquiryBudget(price: Price, discounted: Price): { min: number; max: number } | null {
  const base = price == null ? null : Number(price);
  if (base == null || !(base > 0)) return null;
  const off = discounted == null ? null : Number(discounted);
  const shown = off != null && off > 0 && off < base ? off : base;
  // Never over what a lead's budget holds (numeric(14,2)): 110 % of a price near it would not be stored, and the enquiry lost.
  return { min: roundBudget(shown * ENQUIRY_BUDGET.under, 'down'), max: Math.min(Math.max(roundBudget(shown * ENQUIRY_BUDGET.over, 'up'), base), MAX_AMOUNT_NUMBER) };
}

/**
 * What a lead made from an enquiry looks for, read from the property asked about: its subtype, its
 * place, and for each service it is offered for, a budget around its price (enquiryBudget). The
 * services themselves are set from the property's flags by the caller.
 */
function criteriaOf(o: EnquiredObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (o.object_sub_type_id != null) out.objectSubTypes = [o.object_sub_type_id];
  if (o.location_id != null) out.locationId = o.location_id;
  const budgets = [
    [o.for_sale, enquiryBudget(o.sale_price, o.sale_price_with_discount), 'purchaseBudgetRange'],
    [o.for_rent, enquiryBudget(o.rent_price, o.rent_price_with_discount), 'rentBudgetRange'],
    [o.for_short_rent, enquiryBudget(o.short_rent_price, null), 'shortRentBudgetRange'],
  ] as const;
  for (const [offered, budget, field] of budgets) {
    if (offered !== true || !budget) continue;
    out[`${field}Min`] = budget.min;
    out[`${field}Max`] = budget.max;
  }
  return out;
}
export const WEBSITE_ACTOR: Actor = { id: null, name: 'website' };

/**
 * A visitor's enquiry about a property, by its reference number: a new lead in the CRM (stage new,
 * the object offered, the services the object is offered for), for the account with this e-mail
 * when there is one (not an employee's), else for a new client account made from the name, e-mail
 * and phone. The visitor's words are the lead's description; an existing account is not changed at
 * all (not even marked a client), and its lead is marked "from the website, unverified".
 *
 * A property withdrawn from the site, or deleted, since its page was opened (the page may have been
 * kept a while by the visitor's browser or a cache) still gets the enquiry: the agency wants the
 * client. The lead says so in its first line and its alert, has the property when it still exists
 * (`listed` false then), and none when it was deleted. Undefined for a reference number of no
 * property that is or was on the site (a draft's, or one never given: an address made up).
 */
export async function createEnquiry(
  app: FastifyInstance,
  refNumber: number,
  e: TEnquiry,
  culture: TCulture,
  t: T,
): Promise<{ leadId: number; accountId: number; newAccount: boolean; repeated?: boolean; listed: boolean } | undefined> {
  const ref = formatReferenceNumber(refNumber);
  return app.db.transaction(async (tx) => {
    // One enquiry at a time for an e-mail, so a double sending is seen as one, and two first
    // enquiries from one new e-mail (about two properties) make one client, not two.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`enquiry:${e.email.trim().toLowerCase()}`}))`);
    const [o] = (
      await tx.execute(sql`select o.id, o.for_sale, o.for_rent, o.for_short_rent, coalesce(${PUBLIC_WHERE}, false) as listed,
          o.object_sub_type_id, o.location_id, o.sale_price, o.sale_price_with_discount, o.rent_price, o.rent_price_with_discount, o.short_rent_price
        from objects o where o.reference_number = ${refNumber} for share`)
    ).rows as EnquiredObject[];
    if (o?.listed !== true && !(await enquiryTaken(tx, refNumber))) return undefined;
    const listed = o?.listed === true;
    const email = e.email.trim().toLowerCase();
    // search_text holds the e-mails (trigram index); the exact comparison confirms.
    const found = await tx.execute(sql`
      select a.id from accounts a
      where a.search_text like '%' || replace(replace(replace(public.crm_search_norm(${email}), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'
        and not a.is_employe
        and exists (select 1 from unnest(a.emails) m where lower(m) = ${email})
      order by a.id limit 1`);
    let accountId = (found.rows[0] as { id: number } | undefined)?.id;
    const newAccount = accountId === undefined;
    if (accountId === undefined) {
      const words = e.name.trim().split(/\s+/);
      const lastName = words.length > 1 ? words.pop()! : words[0]!;
      const firstName = words.length >= 1 && words.join(' ') !== lastName ? words.join(' ') : null;
      const [a] = await tx
        .insert(accounts)
        .values({ firstName, lastName, emails: [e.email.trim()], phones: e.phone ? [e.phone] : [], language: culture, isClient: true, isClientDate: new Date() })
        .returning({ id: accounts.id, displayName: accounts.displayName });
      accountId = a!.id;
      await logAction(tx, WEBSITE_ACTOR, { action: 'Create', entity: 'Account', entityId: accountId, message: a!.displayName, data: { from: 'website', objectRef: ref } });
    }
    // A known client's e-mail proves nothing of who typed it (decision 022): the client's record is
    // left as it is, and the lead says so before the visitor's words.
    const describe = (unverified: boolean) =>
      [
        t(listed ? 'publishing.enquiry.leadTitle' : o ? 'publishing.enquiry.leadTitleWithdrawn' : 'publishing.enquiry.leadTitleDeleted', { ref }),
        unverified ? t('publishing.enquiry.unverified') : null,
        e.message.trim(),
        `${t('publishing.enquiry.name')}: ${e.name.trim()}`,
        `${t('publishing.enquiry.email')}: ${e.email.trim()}`,
        e.phone ? `${t('publishing.enquiry.phone')}: ${e.phone}` : null,
      ]
        .filter(Boolean)
        .join('\n');
    const description = describe(!newAccount);
    // The same enquiry sent again (Back and send, a retry on a slow connection): the lead made a
    // little earlier answers it (its client made by the first sending, so without the line that
    // says it is unverified); no second lead, no second alert. Its first line names the property.
    const [again] = (
      await tx.execute(sql`
        select l.id from leads l
        where l.account_id = ${accountId} and l.description in (${description}, ${describe(false)})
          and l.created_on > now() - make_interval(mins => ${ENQUIRY_REPEAT_MINUTES})
        order by l.id desc limit 1`)
    ).rows as { id: number }[];
    if (again) return { leadId: again.id, accountId, newAccount: false, repeated: true, listed };
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: app.config.timeZone }).format(new Date());
    // The source the office gave the site's enquiries (settings), so they count among its leads by source.
    const source = ((await tx.execute(sql`select enquiry_source_id as id from site_settings where id = 1`)).rows[0] as { id: number | null } | undefined)?.id ?? null;
    const [lead] = await tx
      .insert(leads)
      .values({
        accountId,
        source,
        stage: 1,
        priority: 2,
        startDate: today,
        forPurchase: o?.for_sale === true,
        forRent: o?.for_rent === true,
        forShortRent: o?.for_short_rent === true,
        ...(o ? criteriaOf(o) : {}),
        description,
      } as never)
      .returning({ id: leads.id });
    if (o) await tx.insert(leadObjects).values({ leadId: lead!.id, objectId: o.id, position: 0 });
    await logAction(tx, WEBSITE_ACTOR, { action: 'Create', entity: 'Lead', entityId: lead!.id, message: `#${ref}`, data: { accountId, objectId: o?.id ?? null, from: 'website', listed } });
    const params = { ref, name: e.name.trim(), email: e.email.trim() };
    const messageKey = listed ? 'alerts.msg.websiteEnquiry' : o ? 'alerts.msg.websiteEnquiryWithdrawn' : 'alerts.msg.websiteEnquiryDeleted';
    // The office is told at once (the navbar's unread count), with a link to the new lead.
    await createAlert(tx, {
      source: 'Website',
      kind: 'enquiry',
      messageKey,
      params,
      content: app.translator.t('en', messageKey, params),
      entity: 'Lead',
      entityId: lead!.id,
    });
    return { leadId: lead!.id, accountId, newAccount, listed };
  });
}
