import type { FastifyInstance } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import {
  DEAL_RELATION,
  DEAL_STAGE_CLOSED,
  DEAL_TYPE_RENTAL,
  DEAL_TYPE_SALE,
  RESULTS_YEAR_MAX,
  RESULTS_YEAR_MIN,
  VIEWING_RESULT_OFFER,
  type TResultsAnswer,
  type TResultsQuery,
  type TResultsRow,
} from '@crm/contract';
import type { SessionUser } from '../../plugins/auth.ts';
import { agencyToday, nextDay } from '../../lib/dates.ts';
import { fieldError, orderError } from '../../lib/errors.ts';
import { branchOptions } from '../accounts/accounts.service.ts';
import { leadStartDay } from '../leads/leads.service.ts';

type T = (key: string, params?: Record<string, string | number>) => string;
type Row = Record<string, unknown>;

/** Assignment parent kinds (assignments.parent): a lead, a viewing. */
const ASSIGNED_LEAD = 2;
const ASSIGNED_VIEWING = 3;
/**
 * The viewings the report counts: planned, liked, second viewing wanted, offer made, not interested.
 * Cancelled (6) and "did not come" (7) were not held; a viewing without properties has no result.
 * The viewings list's result filter with these values shows the same viewings.
 */
export const HELD_VIEWING_RESULTS = [1, 2, 3, 4, 5] as const;

const pad = (n: number) => String(n).padStart(2, '0');
const lastDayOf = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** The days a period covers, both included, counted from the agency's today; a typed range is checked. */
export function periodDays(q: TResultsQuery, today: string): { from: string; till: string } {
  const y = Number(today.slice(0, 4));
  const m = Number(today.slice(5, 7));
  const month = (yy: number, mm: number) => ({ from: `${yy}-${pad(mm)}-01`, till: `${yy}-${pad(mm)}-${pad(lastDayOf(yy, mm))}` });
  switch (q.period ?? 'month') {
    case 'month':
      return month(y, m);
    case 'lastMonth':
      return m === 1 ? month(y - 1, 12) : month(y, m - 1);
    case 'quarter': {
      const first = m - ((m - 1) % 3);
      return { from: `${y}-${pad(first)}-01`, till: `${y}-${pad(first + 2)}-${pad(lastDayOf(y, first + 2))}` };
    }
    case 'year':
      return { from: `${y}-01-01`, till: `${y}-12-31` };
    case 'range': {
      if (!q.from) throw fieldError('from', 'validation.required');
      if (!q.till) throw fieldError('till', 'validation.required');
      for (const [field, d] of [['from', q.from], ['till', q.till]] as const) {
        const year = Number(d.slice(0, 4));
        if (year < RESULTS_YEAR_MIN || year > RESULTS_YEAR_MAX) throw fieldError(field, 'reports.yearOutOfRange', { min: String(RESULTS_YEAR_MIN), max: String(RESULTS_YEAR_MAX) });
      }
      if (q.from > q.till) throw orderError('date', 'till', true);
      return { from: q.from, till: q.till };
    }
  }
}

/**
 * Whose rows the reader sees: an office admin every employee (or one branch's), a branch admin their
 * branch's, an employee only their own account (none without one).
 */
function agentsOf(user: SessionUser, branchId: number | null | undefined): SQL {
  const admin = user.roles.includes('admin');
  if (!admin) return user.accountId == null ? sql`false` : sql`a.id = ${user.accountId}`;
  if (user.branchId !== null) return sql`a.branch_id = ${user.branchId}`;
  return branchId ? sql`a.branch_id = ${branchId}` : sql`true`;
}

const money = (x: SQL) => sql`round(coalesce(${x}, 0), 2)::text`;

/**
 * POST /api/report/results: each agent's results over a period, and the totals, in one statement:
 * properties taken on (created in the period by the agent: objects.created_by_account_id), viewings
 * (assigned, dated in the period, held or planned), those that ended in an offer, leads (assigned,
 * started in the period: the lead's start date, else the day it was entered; the leads list's dates), and deals closed (stage Closed, closing date in the period) where the agent
 * is the deal's employee in charge, sales and rentals apart, with their value and commission. A record
 * with two agents counts for each; the totals row counts it once.
 */
export async function results(app: FastifyInstance, user: SessionUser, q: TResultsQuery, t: T): Promise<TResultsAnswer> {
  const tz = app.config.timeZone;
  const { from, till } = periodDays(q, agencyToday(tz));
  const start = sql`(${from}::date::timestamp at time zone ${tz})`;
  const end = sql`(${nextDay(till)}::date::timestamp at time zone ${tz})`;
  // Every measure is grouped by agent and once more over all (k = 0): the totals row.
  const sets = sql`group by grouping sets ((agent), ())`;
  const key = sql`case when grouping(agent) = 1 then 0 else agent end as k`;
  // A record shared by two agents is a line of each: an agent's row adds their lines, the totals each
  // record's first line only (a count(distinct) per grouping set sorted every line, 40 ms for a year's deals).
  const first = (id: SQL, agent: SQL) => sql`row_number() over (partition by ${id} order by ${agent}) = 1 as first`;
  const tally = (cond: SQL) => sql`(case when grouping(agent) = 1 then count(*) filter (where ${cond} and first) else count(*) filter (where ${cond}) end)::int`;
  const once = (x: SQL, type: number) =>
    money(sql`case when grouping(agent) = 1 then sum(${x}) filter (where deal_type = ${type} and first) else sum(${x}) filter (where deal_type = ${type}) end`);
  const r = await app.db.execute<Row>(sql`
    with ag as (
      select a.id, a.display_name from accounts a
      where a.is_employe and (a.end_date is null or a.end_date >= ${from}::date) and ${agentsOf(user, q.branchId)}
    ),
    p as (
      select ${key}, count(*)::int as n
      from (select o.created_by_account_id as agent from objects o
        where o.created_on >= ${start} and o.created_on < ${end} and o.created_by_account_id in (select id from ag)) o
      ${sets}
    ),
    v as (
      select ${key}, ${tally(sql`true`)} as n, ${tally(sql`result = ${VIEWING_RESULT_OFFER}`)} as offers
      from (select v.id, v.result, s.account_id as agent, ${first(sql`v.id`, sql`s.account_id`)} from viewings v
        join assignments s on s.parent = ${ASSIGNED_VIEWING} and s.parent_id = v.id
        where v.date_of_viewing >= ${start} and v.date_of_viewing < ${end} and v.result = any(${sql.param([...HELD_VIEWING_RESULTS])}::int[])
          and s.account_id in (select id from ag)) v
      ${sets}
    ),
    l as (
      select ${key}, ${tally(sql`true`)} as n
      from (select l.id, s.account_id as agent, ${first(sql`l.id`, sql`s.account_id`)} from leads l
        join assignments s on s.parent = ${ASSIGNED_LEAD} and s.parent_id = l.id
        where ${leadStartDay(tz, 'l')} between ${from}::date and ${till}::date and s.account_id in (select id from ag)) l
      ${sets}
    ),
    -- The period's closed deals first (deals_closed_end_date_idx), then their agents: from the agents'
    -- side PostgreSQL probed every deal each one is in charge of (20,000 at full size) for its stage and date.
    closed as materialized (
      select d.id, d.deal_type, coalesce(d.price, d.asking_price) as amount, d.commission from deals d
      where d.deal_stage = ${DEAL_STAGE_CLOSED} and d.end_date >= ${from}::date and d.end_date <= ${till}::date
    ),
    d as (
      select ${key},
        ${tally(sql`deal_type = ${DEAL_TYPE_SALE}`)} as sales,
        ${once(sql`amount`, DEAL_TYPE_SALE)} as sales_value,
        ${once(sql`commission`, DEAL_TYPE_SALE)} as sales_commission,
        ${tally(sql`deal_type = ${DEAL_TYPE_RENTAL}`)} as rentals,
        ${once(sql`amount`, DEAL_TYPE_RENTAL)} as rentals_value,
        ${once(sql`commission`, DEAL_TYPE_RENTAL)} as rentals_commission
      from (select d.deal_type, d.amount, d.commission, p.account_id as agent, ${first(sql`d.id`, sql`p.account_id`)}
        from closed d join deal_parties p on p.deal_id = d.id and p.relation = ${DEAL_RELATION.assigned}
        where p.account_id in (select id from ag)) d
      ${sets}
    )
    select x.id, x.display_name, coalesce(p.n, 0) as properties, coalesce(v.n, 0) as viewings, coalesce(v.offers, 0) as offers, coalesce(l.n, 0) as leads,
      coalesce(d.sales, 0) as sales, coalesce(d.sales_value, '0.00') as sales_value, coalesce(d.sales_commission, '0.00') as sales_commission,
      coalesce(d.rentals, 0) as rentals, coalesce(d.rentals_value, '0.00') as rentals_value, coalesce(d.rentals_commission, '0.00') as rentals_commission,
      ${money(sql`coalesce(d.sales_commission, '0')::numeric + coalesce(d.rentals_commission, '0')::numeric`)} as commission
    from (select id, display_name from ag union all select 0, '') x
      left join p on p.k = x.id left join v on v.k = x.id left join l on l.k = x.id left join d on d.k = x.id
    order by x.id = 0, x.display_name collate "und-x-icu", x.id`);
  const rows = (r.rows as Row[]).map(
    (x): TResultsRow => ({
      accountId: Number(x.id) || null,
      name: x.id === 0 ? t('reports.results.total') : String(x.display_name),
      properties: Number(x.properties),
      viewings: Number(x.viewings),
      offers: Number(x.offers),
      leads: Number(x.leads),
      sales: Number(x.sales),
      salesValue: String(x.sales_value),
      salesCommission: String(x.sales_commission),
      rentals: Number(x.rentals),
      rentalsValue: String(x.rentals_value),
      rentalsCommission: String(x.rentals_commission),
      commission: String(x.commission),
    }),
  );
  const totals = rows.pop()!;
  const officeAdmin = user.roles.includes('admin') && user.branchId === null;
  return { from, till, rows, totals, branches: officeAdmin ? await branchOptions(app.db, t) : [] };
}
