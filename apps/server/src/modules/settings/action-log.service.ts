import type { FastifyInstance } from 'fastify';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { ACCOUNT_LOG_ENTITIES, ACTION_LOG_COUNT_CAP, ACTION_LOG_ENTITIES, LEAD_SERVICES, formatReferenceNumber, type TActionLogAnswer, type TActionLogSearch, type TCulture } from '@crm/contract';
import { actionLog, leadColumns } from '../../db/schema/index.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { containsPattern, localDayEnd, localDayStart } from '../accounts/accounts.sql.ts';
import { describeLead } from '../leads/leads.service.ts';
import { objectTitle } from '../objects/objects.sql.ts';

type PageRow = {
  id: number;
  date: Date;
  action_by_display: string | null;
  action: string;
  entity: string;
  entity_id: number | null;
  message: string | null;
  data: unknown;
  account: string | null;
  object_ref: number | null;
  account_names: Record<string, string> | null;
  object_refs: Record<string, [number, string | null]> | null;
  lead_refs: Record<string, Record<string, unknown> & { account: string | null }> | null;
  deal_ids: number[] | null;
  viewing_dates: Record<string, string | null> | null;
  user_names: Record<string, string> | null;
  branch_keys: Record<string, string> | null;
};

/** A record's number in an entry's data: a whole number that fits an id. */
const AN_ID = '? (@.type() == "number" && @.floor() == @ && @ > 0 && @ < 2147483648)';

/**
 * The record numbers of one kind an entry's data (`p.data`) holds: under any of `keys` at any depth
 * (a number, or a change's from and to: a deal's parties' accountId, a viewing's results' objectId,
 * a key's holder before and after), as the single-field editor's { field, from, to }, and in the
 * lists `lists` (a lead's offered objects). The paths are the constants below, never the reader's text.
 */
function idsIn(keys: string[], lists: string[] = [], entities?: readonly string[]): SQL {
  // Lax: a key missing in one place, or holding something else, is passed over rather than an error.
  const paths = [
    ...keys.flatMap((k) => [`$.**.${k}`, `$.**.${k}.from`, `$.**.${k}.to`, `$ ? (@.field == "${k}").from`, `$ ? (@.field == "${k}").to`]),
    ...lists.map((k) => `$.${k}[*]`),
  ];
  const only = entities ? ` where p.entity in (${entities.map((e) => `'${e}'`).join(', ')})` : '';
  return sql.raw(paths.map((path) => `select (x #>> '{}')::int from jsonb_path_query(p.data, 'lax ${path} ${AN_ID}', '{}', true) x${only}`).join(' union '));
}
/**
 * The keys (and lists) of log data that hold the number of an account, a property, a lead, a deal,
 * a viewing, a sign-in, a branch: the same words in every entity's data. An account's sourceId is
 * the account it came through; a booking's sourceId is where it was booked (a list), not an account.
 */
const ACCOUNT_IDS = sql`${idsIn(['accountId', 'keyAccountId'])} union ${idsIn(['sourceId'], [], ACCOUNT_LOG_ENTITIES)}`;
const OBJECT_IDS = idsIn(['objectId'], ['objects']);
const LEAD_IDS = idsIn(['demandId', 'leadId']);
const DEAL_IDS = idsIn(['dealId']);
const VIEWING_IDS = idsIn(['viewingId']);
const USER_IDS = idsIn(['userId']);
const BRANCH_IDS = idsIn(['branchId']);
/** Each kind's numbers in a row's data (alias `p`) read in SQL: the reference refsInData is tested against. */
export const REF_IDS_SQL: Record<'account' | 'object' | 'lead' | 'deal' | 'viewing' | 'user' | 'branch', SQL> = {
  account: ACCOUNT_IDS,
  object: OBJECT_IDS,
  lead: LEAD_IDS,
  deal: DEAL_IDS,
  viewing: VIEWING_IDS,
  user: USER_IDS,
  branch: BRANCH_IDS,
};
/** What a lead's line is made of (describeLead): its services and budgets, by field name. */
const LEAD_LINE_FIELDS = [...LEAD_SERVICES, 'purchaseBudgetRangeMin', 'purchaseBudgetRangeMax', 'rentBudgetRangeMin', 'rentBudgetRangeMax', 'shortRentBudgetRangeMin', 'shortRentBudgetRangeMax'];

/**
 * The records a row's data names by number, as they are now, by id, read in SQL with the row (how
 * the page read them before; now the reference the tests compare refsInData and recordNames with): accounts by name,
 * properties by reference number and title (in the reader's language), leads by what describeLead
 * makes of them, deals by number, viewings by their date, sign-ins by their person's name (else the
 * username), branches by their city. Read with the page's rows in one statement (subqueries on the 20 rows), never a
 * query per row; a record deleted since is not among them (the reader sees its number).
 */
export const dataRefsSql = (culture: TCulture) => sql`
  (select jsonb_object_agg(a.id::text, a.display_name) from accounts a where a.id = any(array(${ACCOUNT_IDS}))) as account_names,
  (select jsonb_object_agg(o.id::text, jsonb_build_array(o.reference_number, ${objectTitle(culture, 'o')})) from objects o where o.id = any(array(${OBJECT_IDS}))) as object_refs,
  (select jsonb_object_agg(l.id::text, jsonb_build_object('account', la.display_name, ${sql.join(
    LEAD_LINE_FIELDS.map((f) => sql`${sql.raw(`'${f}'`)}::text, l.${sql.identifier(leadColumns[f]!.name)}`),
    sql`, `,
  )}))
    from leads l left join accounts la on la.id = l.account_id where l.id = any(array(${LEAD_IDS}))) as lead_refs,
  (select jsonb_agg(d.id order by d.id) from deals d where d.id = any(array(${DEAL_IDS}))) as deal_ids,
  (select jsonb_object_agg(v.id::text, v.date_of_viewing) from viewings v where v.id = any(array(${VIEWING_IDS}))) as viewing_dates,
  (select jsonb_object_agg(u.id::text, coalesce(ua.display_name, u.username)) from users u left join accounts ua on ua.id = u.account_id where u.id = any(array(${USER_IDS}))) as user_names,
  (select jsonb_object_agg(b.id::text, b.name_key) from branches b where b.id = any(array(${BRANCH_IDS}))) as branch_keys`;

/**
 * The sign-ins "by whom" means: those of a picked employee account, or those whose name, e-mail
 * or account name holds the typed text. Read first from the small users table, so that the log
 * itself is filtered by `action_by = any(...)` on its index, never by text row by row.
 */
async function whoseSignIns(app: FastifyInstance, f: TActionLogSearch): Promise<number[] | null> {
  if (f.actionBy != null) {
    const r = await app.db.execute(sql`select id from users where account_id = ${f.actionBy}`);
    return (r.rows as { id: number }[]).map((u) => u.id);
  }
  const text = f.actionByText?.trim();
  if (!text) return null;
  const r = await app.db.execute(sql`
    select u.id from users u left join accounts a on a.id = u.account_id
    where crm_search_norm(u.username || ' ' || u.email) like ${containsPattern(text)} or a.search_text like ${containsPattern(text)}`);
  return (r.rows as { id: number }[]).map((u) => u.id);
}

/** The keys (and lists) of log data that hold each kind of record's number (the same words in every entity's data). */
const REF_KEYS = {
  account: { keys: ['accountId', 'keyAccountId'], lists: [] as string[] },
  object: { keys: ['objectId'], lists: ['objects'] },
  lead: { keys: ['demandId', 'leadId'], lists: [] as string[] },
  deal: { keys: ['dealId'], lists: [] as string[] },
  viewing: { keys: ['viewingId'], lists: [] as string[] },
  user: { keys: ['userId'], lists: [] as string[] },
  branch: { keys: ['branchId'], lists: [] as string[] },
} as const;
type RefKind = keyof typeof REF_KEYS;

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0 && v < 2147483648;
/** A value's numbers as the paths read them (lax): the number itself, or the numbers an array holds (one level). */
const numbersOf = (v: unknown, out: Set<number>) => {
  if (isId(v)) out.add(v);
  else if (Array.isArray(v)) for (const x of v) if (isId(x)) out.add(x);
};
const fromTo = (v: unknown, out: Set<number>) => {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    numbersOf((v as Row)['from'], out);
    numbersOf((v as Row)['to'], out);
  }
};
type Row = Record<string, unknown>;

/**
 * The record numbers of one kind an entry's data holds, read here from the page's rows as idsIn's
 * JSON paths read them in SQL (`lax $.**.key`, its `.from` and `.to`, the single-field editor's
 * { field, from, to } at the top, and the lists `$.list[*]`; whole numbers that fit an id): the
 * test of this module compares the two on every shape of data the app writes. Read in SQL for each
 * of a page's twenty rows, they were most of the action log's cost (15 paths a kind, 7 kinds).
 */
export function refsInData(data: unknown, keys: readonly string[], lists: readonly string[] = []): Set<number> {
  const out = new Set<number>();
  if (data === null || typeof data !== 'object') return out;
  const wanted = new Set(keys);
  const walk = (node: unknown) => {
    if (Array.isArray(node)) {
      for (const x of node) walk(x);
      return;
    }
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node as Row)) {
      if (wanted.has(k)) {
        numbersOf(v, out);
        fromTo(v, out);
        if (Array.isArray(v)) for (const x of v) fromTo(x, out);
      }
      walk(v);
    }
  };
  walk(data);
  // The single-field editor's change, at the top (a list of them too); its field named as the path
  // reads it (lax: a list of names is any of them).
  const names = (f: unknown) => (Array.isArray(f) ? f : [f]).filter((x): x is string => typeof x === 'string');
  for (const top of Array.isArray(data) ? data : [data]) {
    if (top && typeof top === 'object' && !Array.isArray(top) && names((top as Row).field).some((f) => wanted.has(f))) fromTo(top, out);
  }
  // The lists at the top (of each entry of a list at the top, lax).
  for (const top of Array.isArray(data) ? data : [data]) {
    if (!top || typeof top !== 'object' || Array.isArray(top)) continue;
    for (const list of lists) {
      const v = (top as Row)[list];
      // Each of its items (the value itself when it is not a list), a list among them read one level down.
      for (const item of Array.isArray(v) ? v : [v]) numbersOf(item, out);
    }
  }
  return out;
}

/** Every kind's numbers in one entry's data (an account's sourceId only in an account's entries: a booking's is where it was booked). */
export function entryRefs(entity: string, data: unknown): Record<RefKind, Set<number>> {
  const refs = Object.fromEntries(Object.entries(REF_KEYS).map(([kind, k]) => [kind, refsInData(data, k.keys, k.lists)])) as Record<RefKind, Set<number>>;
  if ((ACCOUNT_LOG_ENTITIES as readonly string[]).includes(entity)) for (const id of refsInData(data, ['sourceId'])) refs.account.add(id);
  return refs;
}

/** jsonb's order of an object's keys (shorter first, then by their bytes), kept for the answers the SQL used to build. */
const jsonbKeyOrder = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
function mapOf<T>(ids: Set<number>, found: Map<number, T>): Record<string, T> | null {
  const keys = [...ids].filter((id) => found.has(id)).map(String).sort(jsonbKeyOrder);
  return keys.length ? Object.fromEntries(keys.map((k) => [k, found.get(Number(k))!])) : null;
}

/**
 * POST /api/actionLog: newest first, filtered by who (an employee's sign-ins, or a name typed),
 * the kind of record and its id, and local days. Every filter is served by an index of action_log
 * in date order, with the id (migration 0064): the page's 20 ids come from the index alone, however
 * many rows the page skips, then only those rows are read with the names of who and what, and the
 * records their data names (one look-up of every kind for the whole page). The total is counted up
 * to ACTION_LOG_COUNT_CAP: past that the answer says "more than".
 */
export async function searchActionLog(app: FastifyInstance, f: TActionLogSearch, culture: TCulture): Promise<TActionLogAnswer> {
  const tz = app.config.timeZone;
  const t = (key: string, params?: Record<string, string | number>) => app.translator.t(culture, key, params);
  const who = await whoseSignIns(app, f);
  if (who && who.length === 0) return { items: [], totalRows: 0, totalCapped: false };
  const where: (SQL | undefined)[] = [];
  if (who) where.push(who.length === 1 ? eq(actionLog.actionBy, who[0]!) : inArray(actionLog.actionBy, who));
  const entity = ACTION_LOG_ENTITIES[f.entity];
  if (entity) where.push(eq(actionLog.entity, entity));
  if (f.entityId != null) where.push(eq(actionLog.entityId, f.entityId));
  if (f.startDate) where.push(sql`${actionLog.date} >= ${localDayStart(f.startDate, tz)}`);
  if (f.endDate) where.push(sql`${actionLog.date} < ${localDayEnd(f.endDate, tz)}`);
  const cond = and(...where);
  const filter = cond ? sql`where ${cond}` : sql``;

  const counted = app.db.execute(sql`select count(*)::int as n from (select 1 from ${actionLog} ${filter} limit ${ACTION_LOG_COUNT_CAP + 1}) c`);
  const page = app.db
    .execute(sql`select ${actionLog.id} as id from ${actionLog} ${filter} order by ${actionLog.date} desc, ${actionLog.id} desc limit ${f.perPage} offset ${(f.currentPage - 1) * f.perPage}`)
    .then(async (r) => {
      const ids = (r.rows as { id: number }[]).map((x) => Number(x.id));
      if (!ids.length) return [] as PageRow[];
      const rows = await app.db.execute(sql`
        select p.id, p.date, p.action, p.entity, p.entity_id, p.message, p.data,
          coalesce(who.display_name, p.action_by_name) as action_by_display,
          acc.display_name as account, obj.reference_number as object_ref
        from ${actionLog} p
        left join lateral (select a.display_name from users u join accounts a on a.id = u.account_id where u.id = p.action_by) who on true
        left join accounts acc on p.entity = 'Account' and acc.id = p.entity_id
        left join objects obj on p.entity = 'Object' and obj.id = p.entity_id
        where p.id = any(${sql.param(ids)}::bigint[])
        order by p.date desc, p.id desc`);
      return rows.rows as PageRow[];
    });
  const [countResult, rows] = await Promise.all([counted, page]);
  const n = (countResult.rows[0] as { n: number }).n;
  const refs = rows.map((r) => entryRefs(r.entity, r.data));
  const all = (kind: RefKind) => [...new Set(refs.flatMap((x) => [...x[kind]]))];
  const names = await recordNames(app, culture, { account: all('account'), object: all('object'), lead: all('lead'), deal: all('deal'), viewing: all('viewing'), user: all('user'), branch: all('branch') });
  return {
    totalRows: Math.min(n, ACTION_LOG_COUNT_CAP),
    totalCapped: n > ACTION_LOG_COUNT_CAP,
    items: rows.map((r, i) => {
      const mine = refs[i]!;
      const accountNames = mapOf(mine.account, names.account);
      const objectRefs = mapOf(mine.object, names.object);
      const leadRefs = mapOf(mine.lead, names.lead);
      const dealIds = [...mine.deal].filter((id) => names.deal.has(id)).sort((a, b) => a - b);
      const viewingDates = mapOf(mine.viewing, names.viewing);
      const userNames = mapOf(mine.user, names.user);
      const branchKeys = mapOf(mine.branch, names.branch);
      return {
        id: Number(r.id),
        date: toLocalDateTime(new Date(r.date), tz)!,
        // A change made with an API key: named as the key, in the reader's language (decision 080).
        actionBy: r.action_by_display?.startsWith('apikey:') ? t('actionLog.ui.apiKey', { name: r.action_by_display.slice(7) }) : r.action_by_display,
        action: r.action,
        entity: r.entity,
        entityId: r.entity_id,
        actionOver: r.account ?? (r.object_ref != null ? `#${formatReferenceNumber(r.object_ref)}` : r.entity_id != null ? `#${r.entity_id}` : null),
        message: r.message,
        data: r.data ?? null,
        ...(accountNames ? { accountNames } : {}),
        ...(objectRefs ? { objectNames: mapValues(objectRefs, ([ref, title]) => `#${formatReferenceNumber(ref)}${title ? ` ${title}` : ''}`) } : {}),
        ...(leadRefs ? { leadNames: mapValues(leadRefs, (l) => describeLead(t, l, l.account)) } : {}),
        ...(dealIds.length ? { dealIds } : {}),
        ...(viewingDates ? { viewingDates: mapValues(viewingDates, (d) => (d ? toLocalDateTime(d, tz) : null)) } : {}),
        ...(userNames ? { userNames } : {}),
        ...(branchKeys ? { branchNames: mapValues(branchKeys, (key) => t(key)) } : {}),
      };
    }),
  };
}

/**
 * The records a page's data names, as they are now, by id, in one statement: accounts by name,
 * properties by reference number and title (in the reader's language), leads by what describeLead
 * makes of them, deals by number, viewings by their date, sign-ins by their person's name (else the
 * username), branches by their text key. A record deleted since is not among them (the reader sees its number).
 */
async function recordNames(app: FastifyInstance, culture: TCulture, ids: Record<RefKind, number[]>) {
  const found = {
    account: new Map<number, string>(),
    object: new Map<number, [number, string | null]>(),
    lead: new Map<number, Record<string, unknown> & { account: string | null }>(),
    deal: new Map<number, true>(),
    viewing: new Map<number, Date | null>(),
    user: new Map<number, string>(),
    branch: new Map<number, string>(),
  };
  if (!Object.values(ids).some((x) => x.length)) return found;
  const list = (xs: number[]) => sql.param(xs);
  const res = await app.db.execute(sql`
    select 'account' as kind, a.id, a.display_name as name, null::jsonb as extra from accounts a where a.id = any(${list(ids.account)}::int[])
    union all select 'object', o.id, ${objectTitle(culture, 'o')}, jsonb_build_array(o.reference_number) from objects o where o.id = any(${list(ids.object)}::int[])
    union all select 'lead', l.id, la.display_name, jsonb_build_object(${sql.join(
      LEAD_LINE_FIELDS.map((f) => sql`${sql.raw(`'${f}'`)}::text, l.${sql.identifier(leadColumns[f]!.name)}`),
      sql`, `,
    )})
      from leads l left join accounts la on la.id = l.account_id where l.id = any(${list(ids.lead)}::int[])
    union all select 'deal', d.id, null, null from deals d where d.id = any(${list(ids.deal)}::int[])
    union all select 'viewing', v.id, null, jsonb_build_array(v.date_of_viewing) from viewings v where v.id = any(${list(ids.viewing)}::int[])
    union all select 'user', u.id, coalesce(ua.display_name, u.username), null from users u left join accounts ua on ua.id = u.account_id where u.id = any(${list(ids.user)}::int[])
    union all select 'branch', b.id, b.name_key, null from branches b where b.id = any(${list(ids.branch)}::int[])`);
  for (const r of res.rows as { kind: RefKind; id: number; name: string | null; extra: unknown }[]) {
    const id = Number(r.id);
    if (r.kind === 'account') found.account.set(id, r.name!);
    else if (r.kind === 'object') found.object.set(id, [Number((r.extra as [number])[0]), r.name]);
    else if (r.kind === 'lead') found.lead.set(id, { ...(r.extra as Record<string, unknown>), account: r.name });
    else if (r.kind === 'deal') found.deal.set(id, true);
    else if (r.kind === 'viewing') {
      const at = (r.extra as [string | null])[0];
      found.viewing.set(id, at == null ? null : new Date(at));
    } else if (r.kind === 'user') found.user.set(id, r.name!);
    else found.branch.set(id, r.name!);
  }
  return found;
}

const mapValues = <A, B>(o: Record<string, A>, f: (a: A) => B): Record<string, B> => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));
