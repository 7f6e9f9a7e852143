import type { FastifyInstance } from 'fastify';
import { and, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import {
  SPECIALTY_FLAGS,
  type TAccountRow,
  type TClientRow,
  type TEmployeRow,
  type TListQuery,
  type TOwnerRow,
  type TPartnerRow,
  type TSourceRow,
  type TSpecialistRow,
  type ZClientSearch,
  type ZPartnerSearch,
} from '@crm/contract';
import type { z } from 'zod';
import { accountCounts, accounts } from '../../db/schema/index.ts';
import {
  containsPattern,
  latinMatch,
  createdByName,
  creator,
  creatorAccount,
  epochMs,
  localDayEnd,
  localDayStart,
  modifiedByName,
  collationOf,
  objectRefsOf,
  OWNED_RELATIONS,
  stampJoins,
} from './accounts.sql.ts';
import { makeStampFormatter } from '../../lib/dates.ts';
import { inIdOrder } from '../../lib/paging.ts';
import { accountIdsMatching } from './accounts.search.ts';

type Paging = Pick<TListQuery, 'perPage' | 'currentPage' | 'sortBy' | 'sortDir' | 'search'> & {
  /** The reader's language: names sort by its collation (ICU, accents and case ignored). */
  culture?: string;
};

export { collationOf };
export type TListAnswer<T> = { items: T[]; totalRows: number };

/**
 * The whitelist of sort keys -> SQL. Optional values sort last in both directions; NOT NULL
 * columns get no NULLS clause so that their indexes serve the order. Every list breaks ties on id
 * so pages never overlap.
 */
function orderBy(p: Paging): SQL[] {
  const dir = sql.raw(p.sortDir === 'asc' ? 'asc' : 'desc');
  const collate = collationOf(p.culture);
  const required = (k: SQL) => [sql`${k} ${dir}`];
  const optional = (...ks: SQL[]) => ks.map((k) => sql`${k} ${dir} nulls last`);
  const keys: Record<TListQuery['sortBy'], SQL[]> = {
    createdOn: required(sql`${accounts.createdOn}`),
    createdBy: optional(sql`${createdByName} collate ${collate}`),
    name: required(sql`${accounts.displayName} collate ${collate}`),
    modifiedOn: required(sql`${accounts.modifiedOn}`),
    modifiedBy: optional(sql`${modifiedByName} collate ${collate}`),
    // By the first object's reference number; owners without objects last.
    objects: optional(sql`(select min(o.reference_number) from object_accounts l join objects o on o.id = l.object_id and not o.draft
      where l.account_id = ${accounts.id} and l.relation in (1, 2) and (l.end_date is null or l.end_date >= crm_today()))`),
    role: optional(sql`${accounts.role}`),
    companyType: optional(sql`${accounts.companyType} collate ${collate}`),
    request: optional(sql`coalesce(${openLeadBudget('min')}, ${accounts.purchaseBudgetRangeMin})`, sql`coalesce(${openLeadBudget('max')}, ${accounts.purchaseBudgetRangeMax})`),
  };
  return [...keys[p.sortBy], sql`${accounts.id} ${dir}`];
}

/**
 * Runs a list: the page of rows in one query, the count in another. A page that is not full and
 * starts at row 0 is its own count, which spares "Show all" a second scan. Rows carry the raw
 * stamps (epoch ms, user ids); dates are formatted here and the creators' / modifiers' names come
 * from one query over the users on the page: a lean sort in SQL, no join per row unless the list
 * is sorted by those names.
 */
async function runList<T>(
  app: FastifyInstance,
  p: Paging,
  where: SQL | undefined,
  columns: Record<string, unknown>,
  withStamps: boolean,
  /** The list is a whole kind, unfiltered: its total is kept in account_counts (one row read). */
  wholeKind?: AccountKind,
  /**
   * The filter is a trigram match (a name fragment): its rows come from a bitmap scan that reads
   * every matching row anyway, so the total is counted in that same scan (a window count beside the
   * page's ids) instead of a second statement repeating it.
   */
  countInPageScan = false,
): Promise<TListAnswer<T>> {
  const { db } = app;
  // The search box: a name, phone, e-mail or tax number as the global search matches it (its
  // word index), and the total counted in the page's scan like any name fragment.
  const search = p.search?.trim();
  if (search) {
    where = and(where, sql`${accounts.id} in (${accountIdsMatching(search)})`);
    wholeKind = undefined;
    countInPageScan = true;
  }
  columns = { ...columns, phone: sql<string | null>`${accounts.phones}[1]` };
  const offset = (p.currentPage - 1) * p.perPage;
  const stampColumns = withStamps
    ? { createdOn: epochMs(accounts.createdOn), createdBy: accounts.createdBy, modifiedOn: epochMs(accounts.modifiedOn), modifiedBy: accounts.modifiedBy }
    : {};
  const select = () => Object.entries({ ...columns, ...stampColumns }).map(([key, value]) => sql`${value} as ${sql.identifier(key)}`);
  /** The columns of the rows with these ids, in the ids' order. */
  const rowsOf = async (ids: number[]) => {
    const { rows } = await db.execute<StampRow & { id: number }>(sql`
      select ${sql.join(select(), sql`, `)}
      from ${accounts}
      where ${accounts.id} = any(${sql.param(ids)}::int[])`);
    const ordered = inIdOrder(ids, rows, (r) => Number(r.id));
    return withStamps ? addStamps<T>(app, ordered) : (ordered as unknown as T[]);
  };
  if (countInPageScan && where && p.perPage < 1000) {
    const { rows: page } = await db.execute<{ id: number; total: number }>(sql`
      select ${accounts.id} as id, (count(*) over ())::int as total
      from ${accounts}
        ${stampJoins}
      where ${where}
      order by ${sql.join(orderBy(p), sql`, `)}
      limit ${p.perPage} offset ${offset}`);
    if (page.length) return { items: await rowsOf(page.map((r) => Number(r.id))), totalRows: Number(page[0]!.total) };
    // Past the last page: no row carried the total.
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(accounts).where(where);
    return { items: [], totalRows: row?.n ?? 0 };
  }
  const itemsQuery = async () => {
    // Built as one statement and read as plain rows: at "Show all" sizes, mapping every cell
    // through the query builder costs more than the query. The joins only serve a sort by the
    // creator's / modifier's name; PostgreSQL drops them otherwise (unique keys, no columns read).
    const order = sql.join(orderBy(p), sql`, `);
    const filter = where ? sql`where ${where}` : sql``;
    if (offset === 0) {
      const { rows } = await db.execute<StampRow>(sql`
        select ${sql.join(select(), sql`, `)}
        from ${accounts}
          ${stampJoins}
        ${filter}
        order by ${order}
        limit ${p.perPage}`);
      return withStamps ? addStamps<T>(app, rows) : (rows as unknown as T[]);
    }
    // A later page: its ids first (from the name and date indexes, which hold the kind flags, so
    // the skipped rows are not read from the table), then the columns of those rows only. In one
    // statement, a column's subquery (an owner's reference numbers) ran for every skipped row too.
    const { rows: page } = await db.execute<{ id: number }>(sql`
      select ${accounts.id} as id
      from ${accounts}
        ${stampJoins}
      ${filter}
      order by ${order}
      limit ${p.perPage} offset ${offset}`);
    if (!page.length) return [];
    return rowsOf(page.map((r) => Number(r.id)));
  };
  const countQuery = async () => {
    if (wholeKind) {
      const [kept] = await db.select({ n: accountCounts.n }).from(accountCounts).where(eq(accountCounts.kind, wholeKind));
      if (kept) return kept.n;
    }
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(accounts).where(where);
    return row?.n ?? 0;
  };
  if (p.perPage >= 1000 && offset === 0) {
    const items = await itemsQuery();
    return { items, totalRows: items.length < p.perPage ? items.length : await countQuery() };
  }
  const [items, totalRows] = await Promise.all([itemsQuery(), countQuery()]);
  return { items, totalRows };
}

/** The kinds whose totals account_counts keeps (migration 0006). */
type AccountKind = 'all' | 'client' | 'employe' | 'owner' | 'partner' | 'professional' | 'source';

/** A row as read: stamps as epoch ms and user ids, replaced in place by what the lists show. */
type StampRow = { createdOn: number | string; createdBy: number | string | null; modifiedOn: number | string; modifiedBy: number | string | null };

/** Turns the raw stamps into createdOn/createdBy/modifiedOn/modifiedBy as the lists show them. */
async function addStamps<T>(app: FastifyInstance, rows: StampRow[]): Promise<T[]> {
  const ids = new Set<number>();
  for (const r of rows) {
    if (r.createdBy !== null) ids.add(r.createdBy as number);
    if (r.modifiedBy !== null) ids.add(r.modifiedBy as number);
  }
  const names = new Map<number, string>();
  if (ids.size) {
    const found = await app.db
      .select({ id: creator.id, name: sql<string>`coalesce(${creatorAccount.displayName}, ${creator.username})` })
      .from(creator)
      .leftJoin(creatorAccount, eq(creatorAccount.id, creator.accountId))
      .where(inArray(creator.id, [...ids]));
    for (const u of found) names.set(u.id, u.name);
  }
  const stamp = makeStampFormatter(app.config.timeZone);
  // In place: copying 100k rows (object rest/spread) costs more than the query.
  for (const r of rows) {
    r.createdOn = stamp(r.createdOn as number)!;
    r.createdBy = r.createdBy === null ? null : (names.get(r.createdBy as number) ?? null);
    r.modifiedOn = stamp(r.modifiedOn as number)!;
    r.modifiedBy = r.modifiedBy === null ? null : (names.get(r.modifiedBy as number) ?? null);
  }
  return rows as unknown as T[];
}

/** Every account; without employees for a branch user (the Employes screen is not theirs). */
export function listAccounts(app: FastifyInstance, p: Paging, opts: { withEmployees: boolean } = { withEmployees: true }) {
  if (opts.withEmployees) return runList<TAccountRow>(app, p, undefined, { id: accounts.id, name: accounts.displayName }, true, 'all');
  return runList<TAccountRow>(app, p, sql`not ${accounts.isEmploye}`, { id: accounts.id, name: accounts.displayName }, true);
}

export function listOwners(app: FastifyInstance, p: Paging) {
  return runList<TOwnerRow>(app, p, sql`${accounts.isOwner}`, {
    id: accounts.id,
    name: accounts.displayName,
    objectReferenceNumbers: objectRefsOf(accounts.id, OWNED_RELATIONS),
  }, true, 'owner');
}

/** The purchase budget of the client's newest lead that is not closed (won 6, lost 7). */
const openLeadBudget = (end: 'min' | 'max') =>
  sql`(select l.${sql.raw(`purchase_budget_range_${end}`)} from leads l where l.account_id = ${accounts.id} and coalesce(l.stage, 0) not in (6, 7)
    and (l.purchase_budget_range_min is not null or l.purchase_budget_range_max is not null) order by l.created_on desc limit 1)`;

/** Service filter values → the lead's flag column. */
const LEAD_SERVICE_COLUMNS: Record<number, string> = { 1: 'for_purchase', 2: 'for_rent', 3: 'for_short_rent', 4: 'for_sell', 5: 'for_rent_out' };

export function listClients(app: FastifyInstance, q: z.infer<typeof ZClientSearch> & { culture?: string }) {
  const tz = app.config.timeZone;
  const lastName = q.lastName?.trim();
  const unfilteredClients = !q.serviceFilter && !q.sources.length && !q.startDate && !q.endDate && !lastName;
  const where = and(
    sql`${accounts.isClient}`,
    // Service and source come from the client's leads (and the account's own, set before it had any).
    q.serviceFilter && LEAD_SERVICE_COLUMNS[q.serviceFilter]
      ? or(
          eq(accounts.service, q.serviceFilter),
          sql`exists (select 1 from leads l where l.account_id = ${accounts.id} and l.${sql.raw(LEAD_SERVICE_COLUMNS[q.serviceFilter]!)})`,
        )
      : undefined,
    q.sources.length
      ? or(inArray(accounts.sourceId, q.sources), sql`exists (select 1 from leads l where l.account_id = ${accounts.id} and l.source in ${sql`(${sql.join(q.sources.map((x) => sql`${x}`), sql`, `)})`})`)
      : undefined,
    q.startDate ? gte(accounts.createdOn, localDayStart(q.startDate, tz)) : undefined,
    q.endDate ? lt(accounts.createdOn, localDayEnd(q.endDate, tz)) : undefined,
    // Served by the trigram indexes of clients only, on the stored normal form and skeleton (0029).
    lastName
      ? or(
          sql`${accounts.lastNameNorm} like ${containsPattern(lastName)}`,
          // "papadopoulou" finds Παπαδοπούλου (trigram index on the Latin skeleton of last_name).
          latinMatch(sql`${accounts.lastNameLatin}`, lastName),
        )
      : undefined,
  );
  return runList<TClientRow>(app, q, where, {
    id: accounts.id,
    name: accounts.displayName,
    // The same Objects column as the Owners list (a client who also owns or co-owns shows those properties).
    objectReferenceNumbers: objectRefsOf(accounts.id, OWNED_RELATIONS),
    // A red mark when the client has a lead that is not closed (partial index on open leads).
    hasNotClosedLead: sql<boolean>`exists (select 1 from leads l where l.account_id = ${accounts.id} and coalesce(l.stage, 0) not in (6, 7))`,
    purchaseBudgetRangeMin: sql<number | null>`coalesce(${openLeadBudget('min')}, ${accounts.purchaseBudgetRangeMin})::float8`,
    purchaseBudgetRangeMax: sql<number | null>`coalesce(${openLeadBudget('max')}, ${accounts.purchaseBudgetRangeMax})::float8`,
  }, true, unfilteredClients ? 'client' : undefined, !!lastName);
}

export function listSpecialists(app: FastifyInstance, p: Paging) {
  const flags = Object.fromEntries(SPECIALTY_FLAGS.map((f) => [f, accounts[f]]));
  return runList<TSpecialistRow>(app, p, sql`${accounts.isProfessional}`, {
    id: accounts.id,
    name: accounts.displayName,
    numberOfSoldObjects: accounts.numberOfSoldObjects,
    ...flags,
  }, false, 'professional');
}

export function listPartners(app: FastifyInstance, q: z.infer<typeof ZPartnerSearch> & { culture?: string }) {
  const tz = app.config.timeZone;
  const country = q.country?.trim();
  const createdByText = q.createdByText?.trim();
  const unfilteredPartners = !q.createdBy && !createdByText && !country && !q.createdOnStart && !q.createdOnEnd;
  const where = and(
    or(sql`${accounts.isPartnerRealEstate}`, sql`${accounts.isPartnerTourism}`),
    // The screen picks the creator as a person (an employee account): match that person's sign-ins.
    q.createdBy ? sql`${accounts.createdBy} in (select u.id from users u where u.account_id = ${q.createdBy})` : undefined,
    // Without a chosen user, the typed text matches the creator's name.
    !q.createdBy && createdByText
      ? sql`${accounts.createdBy} in (select u.id from users u left join accounts ua on ua.id = u.account_id
          where crm_search_norm(coalesce(ua.display_name, u.username)) like ${containsPattern(createdByText)})`
      : undefined,
    country ? sql`crm_search_norm(coalesce(${accounts.country}, '')) like ${containsPattern(country)}` : undefined,
    q.createdOnStart ? gte(accounts.createdOn, localDayStart(q.createdOnStart, tz)) : undefined,
    q.createdOnEnd ? lt(accounts.createdOn, localDayEnd(q.createdOnEnd, tz)) : undefined,
  );
  return runList<TPartnerRow>(app, q, where, {
    id: accounts.id,
    name: accounts.displayName,
    isPartnerRealEstate: accounts.isPartnerRealEstate,
    isPartnerTourism: accounts.isPartnerTourism,
    country: accounts.country,
  }, true, unfilteredPartners ? 'partner' : undefined);
}

export function listSources(app: FastifyInstance, p: Paging) {
  return runList<TSourceRow>(app, p, sql`${accounts.isSource}`, {
    id: accounts.id,
    name: accounts.displayName,
    companyType: accounts.companyType,
  }, false, 'source');
}

export function listEmployes(app: FastifyInstance, p: Paging) {
  return runList<TEmployeRow>(app, p, sql`${accounts.isEmploye}`, {
    id: accounts.id,
    name: accounts.displayName,
    role: accounts.role,
    branchId: accounts.branchId,
    // A sign-in that was ended (the employee flag taken off, the account deleted) is not shown as one.
    signIn: sql<string | null>`(select u.email from users u where u.account_id = ${accounts.id} and not u.disabled order by u.id limit 1)`,
  }, false, 'employe');
}
