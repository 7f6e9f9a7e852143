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
/** What a lead's line is made of (describeLead): its services and budgets, by field name. */
const LEAD_LINE_FIELDS = [...LEAD_SERVICES, 'purchaseBudgetRangeMin', 'purchaseBudgetRangeMax', 'rentBudgetRangeMin', 'rentBudgetRangeMax', 'shortRentBudgetRangeMin', 'shortRentBudgetRangeMax'];

/**
 * The records a page row's data names by number, as they are now, by id: accounts by name,
 * properties by reference number and title (in the reader's language), leads by what describeLead
 * makes of them, deals by number, viewings by their date, sign-ins by their person's name (else the
 * username), branches by their city. Read with the page's rows in one statement (subqueries on the 20 rows), never a
 * query per row; a record deleted since is not among them (the reader sees its number).
 */
const dataRefs = (culture: TCulture) => sql`
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

/**
 * POST /api/actionLog: newest first, filtered by who (an employee's sign-ins, or a name typed),
 * the kind of record and its id, and local days. Every filter is served by an index of action_log
 * in date order; the page's 20 rows are found first and only they are joined to the names of who
 * and what (a deep page never joins the rows it skips). The total is counted up to
 * ACTION_LOG_COUNT_CAP: past that the answer says "more than".
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
  const page = app.db.execute(sql`
    with page as (
      select * from ${actionLog} ${filter}
      order by ${actionLog.date} desc, ${actionLog.id} desc
      limit ${f.perPage} offset ${(f.currentPage - 1) * f.perPage}
    )
    select p.id, p.date, p.action, p.entity, p.entity_id, p.message, p.data,
      coalesce(who.display_name, p.action_by_name) as action_by_display,
      acc.display_name as account, obj.reference_number as object_ref, ${dataRefs(culture)}
    from page p
    left join lateral (select a.display_name from users u join accounts a on a.id = u.account_id where u.id = p.action_by) who on true
    left join accounts acc on p.entity = 'Account' and acc.id = p.entity_id
    left join objects obj on p.entity = 'Object' and obj.id = p.entity_id
    order by p.date desc, p.id desc`);
  const [countResult, rows] = await Promise.all([counted, page]);
  const n = (countResult.rows[0] as { n: number }).n;
  return {
    totalRows: Math.min(n, ACTION_LOG_COUNT_CAP),
    totalCapped: n > ACTION_LOG_COUNT_CAP,
    items: (rows.rows as PageRow[]).map((r) => ({
      id: Number(r.id),
      date: toLocalDateTime(new Date(r.date), tz)!,
      actionBy: r.action_by_display,
      action: r.action,
      entity: r.entity,
      entityId: r.entity_id,
      actionOver: r.account ?? (r.object_ref != null ? `#${formatReferenceNumber(r.object_ref)}` : r.entity_id != null ? `#${r.entity_id}` : null),
      message: r.message,
      data: r.data ?? null,
      ...(r.account_names ? { accountNames: r.account_names } : {}),
      ...(r.object_refs ? { objectNames: mapValues(r.object_refs, ([ref, title]) => `#${formatReferenceNumber(ref)}${title ? ` ${title}` : ''}`) } : {}),
      ...(r.lead_refs ? { leadNames: mapValues(r.lead_refs, (l) => describeLead(t, l, l.account)) } : {}),
      ...(r.deal_ids ? { dealIds: r.deal_ids } : {}),
      ...(r.viewing_dates ? { viewingDates: mapValues(r.viewing_dates, (d) => (d ? toLocalDateTime(new Date(d), tz) : null)) } : {}),
      ...(r.user_names ? { userNames: r.user_names } : {}),
      ...(r.branch_keys ? { branchNames: mapValues(r.branch_keys, (key) => t(key)) } : {}),
    })),
  };
}

const mapValues = <A, B>(o: Record<string, A>, f: (a: A) => B): Record<string, B> => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));
