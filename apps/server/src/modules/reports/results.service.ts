import type { FastifyInstance } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import {
  DEAL_RELATION,
  DEAL_STAGE_CLOSED,
  DEAL_TYPE_RENTAL,
  DEAL_TYPE_SALE,
  RESULTS_YEAR_MAX,
  REPORT_API,
  RESULTS_YEAR_MIN,
  VIEWING_RESULT_OFFER,
  type TResultsAnswer,
  type TResultsQuery,
  type TResultsRow,
} from '@crm/contract';
import type { SessionUser } from '../../plugins/auth.ts';
import { createKeptAnswers } from '../../lib/kept-answers.ts';
import { agencyToday, nextDay } from '../../lib/dates.ts';
import { fieldError, orderError } from '../../lib/errors.ts';
import { branchOptions } from '../accounts/accounts.service.ts';
import { leadStartDay } from '../leads/leads.service.ts';
import { notDraft } from '../../lib/drafts.ts';
import type { T } from '../../lib/i18n.ts';

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
 * Each agent's results over a period, and the totals, worked out on the spot from the records in one
 * statement (the reference the kept figures are tested against; decision 071):
 * properties taken on (created in the period by the agent: objects.created_by_account_id; not a draft), viewings
 * (assigned, dated in the period, held or planned), those that ended in an offer, leads (assigned,
 * started in the period: the lead's start date, else the day it was entered; the leads list's dates), and deals closed (stage Closed, closing date in the period) where the agent
 * is the deal's employee in charge, sales and rentals apart, with their value and commission. A record
 * with two agents counts for each; the totals row counts it once.
 */
export async function computeResults(app: FastifyInstance, user: SessionUser, q: TResultsQuery, t: T): Promise<TResultsAnswer> {
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
        where o.created_on >= ${start} and o.created_on < ${end} and o.created_by_account_id in (select id from ag) and ${notDraft('objects', sql`o.id`)}) o
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
  return answerOf(app, user, from, till, r.rows as Row[], t);
}

/** The statement's rows (the agents', then the totals') as the answer. */
async function answerOf(app: FastifyInstance, user: SessionUser, from: string, till: string, found: Row[], t: T): Promise<TResultsAnswer> {
  const rows = found.map(
    (x): TResultsRow => ({
      accountId: Number(x.id) || null,
      name: Number(x.id) === 0 ? t('reports.results.total') : String(x.display_name),
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

/**
 * A period cut into the kept cells' grains (migration 0062): its whole years, the whole months of
 * the rest, the whole tenths of a month (the 1st-10th, 11th-20th, 21st-end) of what remains, and the
 * days left at its edges (adjacent days in one range).
 */
export function periodParts(from: string, till: string): { years: string[]; months: string[]; tenths: string[]; days: [string, string][] } {
  const out = { years: [] as string[], months: [] as string[], tenths: [] as string[], days: [] as [string, string][] };
  const ymd = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;
  const within = (a: string, b: string) => a >= from && b <= till;
  const addDays = (a: string, b: string) => {
    const lo = a < from ? from : a;
    const hi = b > till ? till : b;
    if (lo > hi) return;
    const last = out.days.at(-1);
    if (last && nextDay(last[1]) === lo) last[1] = hi;
    else out.days.push([lo, hi]);
  };
  for (let y = Number(from.slice(0, 4)); y <= Number(till.slice(0, 4)); y++) {
    if (within(ymd(y, 1, 1), ymd(y, 12, 31))) {
      out.years.push(ymd(y, 1, 1));
      continue;
    }
    for (let m = 1; m <= 12; m++) {
      const first = ymd(y, m, 1);
      const last = ymd(y, m, lastDayOf(y, m));
      if (last < from || first > till) continue;
      if (within(first, last)) {
        out.months.push(first);
        continue;
      }
      for (const [d1, d2] of [[1, 10], [11, 20], [21, lastDayOf(y, m)]] as const) {
        const a = ymd(y, m, d1);
        const b = ymd(y, m, d2);
        if (b < from || a > till) continue;
        if (within(a, b)) out.tenths.push(a);
        else addDays(a, b);
      }
    }
  }
  return out;
}


/**
 * POST /api/report/results: each agent's results over a period, and the totals, read from the kept
 * cells (decision 071): per year, month and tenth of a month where the period covers them whole,
 * per day at its edges, per set of agents. An agent's row adds the cells whose set holds them; the totals add each cell whose
 * set holds any agent shown once, so a record with two agents is counted once, as computeResults
 * counts it. The agents shown are chosen as computeResults chooses them.
 */
export async function results(app: FastifyInstance, user: SessionUser, q: TResultsQuery, t: T, today = agencyToday(app.config.timeZone)): Promise<TResultsAnswer> {
  const { from, till } = periodDays(q, today);
  const { years, months, tenths, days } = periodParts(from, till);
  const starts = (grain: number, list: string[]) => (list.length ? [sql`(c.grain = ${grain} and c.start = any(${sql.param(list)}::date[]))`] : []);
  const byDays = days.map(([a, b]) => sql`(c.grain = 1 and c.start between ${a}::date and ${b}::date)`);
  const inPeriod = sql.join([...starts(3, years), ...starts(2, months), ...starts(4, tenths), ...byDays], sql` or `);
  const sums = (x: string) => sql.raw(`sum(c.${x})`);
  const money = (x: SQL) => sql`round(coalesce(${x}, 0), 2)::text`;
  const r = await app.db.execute<Row>(sql`
    with ag as materialized (
      select a.id, a.display_name from accounts a
      where a.is_employe and (a.end_date is null or a.end_date >= ${from}::date) and ${agentsOf(user, q.branchId)}
    ),
    -- The cells, and the changes not yet added into them (reports.fold adds them every minute).
    c as materialized (select * from report_cells c where ${inPeriod} union all select * from report_cell_deltas c where ${inPeriod}),
    lines as (
      -- An agent's line per cell whose set holds them (the agents shown compared as one array: joined, it was probed once a cell).
      select x.agent, x.kind, x.n, x.offers, x.sales, x.sales_value, x.sales_commission, x.rentals, x.rentals_value, x.rentals_commission
      from (select unnest(c.agents) as agent, c.* from c) x
      where x.agent = any(array(select id from ag))
      union all
      select 0, c.kind, c.n, c.offers, c.sales, c.sales_value, c.sales_commission, c.rentals, c.rentals_value, c.rentals_commission
      from c where c.agents && array(select id from ag)
    ),
    g as (
      select c.agent,
        coalesce(sum(c.n) filter (where c.kind = 1), 0)::int as properties,
        coalesce(sum(c.n) filter (where c.kind = 2), 0)::int as viewings,
        coalesce(${sums('offers')} filter (where c.kind = 2), 0)::int as offers,
        coalesce(sum(c.n) filter (where c.kind = 3), 0)::int as leads,
        coalesce(${sums('sales')}, 0)::int as sales, ${money(sums('sales_value'))} as sales_value, ${money(sums('sales_commission'))} as sales_commission,
        coalesce(${sums('rentals')}, 0)::int as rentals, ${money(sums('rentals_value'))} as rentals_value, ${money(sums('rentals_commission'))} as rentals_commission,
        ${money(sql`sum(c.sales_commission) + sum(c.rentals_commission)`)} as commission
      from lines c group by c.agent
    )
    select x.id, x.display_name, coalesce(g.properties, 0) as properties, coalesce(g.viewings, 0) as viewings, coalesce(g.offers, 0) as offers,
      coalesce(g.leads, 0) as leads, coalesce(g.sales, 0) as sales, coalesce(g.sales_value, '0.00') as sales_value, coalesce(g.sales_commission, '0.00') as sales_commission,
      coalesce(g.rentals, 0) as rentals, coalesce(g.rentals_value, '0.00') as rentals_value, coalesce(g.rentals_commission, '0.00') as rentals_commission,
      coalesce(g.commission, '0.00') as commission
    from (select id, display_name from ag union all select 0, '') x
      left join g on g.agent = x.id
    order by x.id = 0, x.display_name collate "und-x-icu", x.id`);
  return answerOf(app, user, from, till, r.rows as Row[], t);
}

/**
 * Every table the report's answer is made from (decision 071, kept answers: decision 072): the kept
 * cells are not counted themselves, so the records their triggers fill them from (in the writer's own
 * statement: properties, viewings, leads, deals, who is assigned to them and the deals' parties), the
 * agents shown (accounts), the branches offered and the texts.
 */
export const RESULTS_TABLES = ['objects', 'viewings', 'assignments', 'leads', 'deals', 'deal_parties', 'accounts', 'branches', 'localization'] as const;

/**
 * The results kept as answered (JSON text) while none of `tables` changes, per period's days (the
 * agency's today for month, quarter and year), whose rows the reader sees (their own, their branch's,
 * the office's or one branch's: only an office admin is offered the branches) and language.
 */
export function keptResults(app: FastifyInstance, tables: readonly string[] = RESULTS_TABLES) {
  const kept = createKeptAnswers(app.db);
  return {
    async get(user: SessionUser, q: TResultsQuery, t: T, culture: string): Promise<string> {
      // One today for the key and the answer: one asked a moment before midnight is kept under the days it covers.
      const today = agencyToday(app.config.timeZone);
      const { from, till } = periodDays(q, today);
      const admin = user.roles.includes('admin');
      const scope = !admin ? ['own', user.accountId ?? null] : user.branchId !== null ? ['branch', user.branchId] : ['office', q.branchId ?? null];
      // The texts' copy too: an answer worded between a change of the texts and their reload is not served after it.
      const key = JSON.stringify([from, till, scope, culture, app.translator.generation]);
      return kept.get(key, tables, async () => REPORT_API.results.answer.parse(await results(app, user, q, t, today)));
    },
    size: () => kept.size(),
  };
}

/** The job that adds the kept figures' deltas into their cells (decision 071). */
export const REPORT_FOLD_JOB = 'reports.fold';
export async function foldReportCells(app: FastifyInstance): Promise<void> {
  await app.db.transaction(async (tx) => {
    await tx.execute(sql`select crm_report_fold()`);
  });
}

/** The app's time zone given to the kept figures at start: their days made again when it changed (decision 071). */
export async function syncReportZone(app: FastifyInstance): Promise<void> {
  await app.db.execute(sql`select crm_report_zone(${app.config.timeZone})`);
}
