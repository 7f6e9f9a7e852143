import type { FastifyInstance } from 'fastify';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type ExcelJS from 'exceljs';
import { LEAD_DOWNLOAD_MAX, LEAD_FIELDS, type TApiKeyScopes, type TCulture, type TLeadDownload, type TLeadFieldDescription } from '@crm/contract';
import { accounts, leadColumns, leads } from '../../db/schema/index.ts';
import { DATE_FORMAT, DATE_TIME_FORMAT, EURO_FORMAT, addColumnsTable, addIssued, addTitle, cellDate, cellMoney, exportSheet, safeText, textCell, type SheetColumn } from '../../lib/excel.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { inEveryLanguage, inPages, type Download } from '../../lib/downloads.ts';
import { countListed, keptListedCount, notDraft } from '../../lib/drafts.ts';
import type { T } from '../../lib/i18n.ts';
import { ASSIGNMENT_PARENT_LEAD, budgetRange, formatEuro, leadConditions, leadOrder, leadType, moreNames, moreValues, serviceOptions } from './leads.service.ts';

type Row = Record<string, unknown>;
type LeadRow = { l: Row; account: string | null; phones: string[] | null; emails: string[] | null; agents: string | null; sourceName: string | null; placeName: string | null };
type Column = SheetColumn<LeadRow>;

const money = { numFmt: EURO_FORMAT };
const date = { numFmt: DATE_FORMAT };
const dateTime = { numFmt: DATE_TIME_FORMAT };

/** Described fields the list's own columns show already, by their names: the stage and the priority. */
const SHOWN_BY_NAME: ReadonlySet<string> = new Set(['stage', 'priority']);
/**
 * A described field the file writes beyond the list's own columns: every one but a long text (each
 * service a yes/no and each budget an amount of its own, beside the list's type and budget texts).
 */
const inFile = (d: TLeadFieldDescription) => !SHOWN_BY_NAME.has(d.name) && d.type !== 'textarea';
/** The lead's columns the file reads (no long text: a description may hold 20,000 characters). */
const READ = ['id', 'accountId', 'createdOn', ...LEAD_FIELDS.filter((d) => d.type !== 'textarea').map((d) => d.name)];
function unwritten(d: TLeadFieldDescription): never {
  throw new Error(`Leads.xlsx has no column for a ${d.type} field (${d.name}): write it as an agent reads it in leadColumnsOf`);
}

/**
 * The file's columns: the list's (number, created, client and how to reach them, type, budget,
 * stage, priority, agents), then every other described field a lead keeps but its long texts, in
 * the description's order (a field added to the description is in the file without a line here).
 */
export function leadColumnsOf(t: T, tz: string, fields: readonly TLeadFieldDescription[] = LEAD_FIELDS, contacts = true): Column[] {
  const value = (r: LeadRow, name: string) => (r.l[name] === '' ? null : (r.l[name] ?? null));
  // The list-valued wishes by their names in the reader's language, as the list's further columns show them.
  const names = (r: LeadRow, name: string) => textCell(moreValues(r.l, r, [name], t)[name] as string | null);
  const NAMED: Partial<Record<TLeadFieldDescription['type'], readonly string[]>> = { location: ['locationId'], 'multi-select': ['objectSubTypes'], 'flag-enum': ['features'] };
  const described = (d: TLeadFieldDescription): Column => {
    const head = t(`fields.lead.${d.name}`);
    const v = (r: LeadRow) => value(r, d.name);
    switch (d.type) {
      case 'date':
        return { head, width: 13, style: date, cell: (r) => cellDate(v(r) as string | null) };
      case 'currency':
        return { head, width: 15, style: money, cell: (r) => cellMoney(v(r) as string | number | null) };
      case 'number':
      case 'area':
        return { head, width: 12, cell: (r) => (v(r) == null ? null : Number(v(r))) };
      case 'boolean':
        return { head, width: 10, cell: (r) => (v(r) == null ? null : t(v(r) === true ? 'common.yes' : 'common.no')) };
      case 'text':
        return { head, width: 18, cell: (r) => textCell(v(r) == null ? null : String(v(r))) };
      case 'select':
        // A choice is written by its name: the source's is an account's.
        return d.name === 'source' ? { head, width: 20, cell: (r) => textCell(r.sourceName) } : unwritten(d);
      default:
        return NAMED[d.type]?.includes(d.name) ? { head, width: 24, cell: (r) => names(r, d.name) } : unwritten(d);
    }
  };
  return [
    { head: t('leads.xlsx.number'), width: 9, cell: (r) => r.l.id as number },
    { head: t('leads.ui.col.created'), width: 17, style: dateTime, cell: (r) => cellDate(toLocalDateTime(r.l.createdOn as Date, tz)) },
    { head: t('leads.ui.col.name'), width: 26, cell: (r) => textCell(r.account ?? t('leads.noClient')) },
    ...(contacts
      ? [
          { head: t('accounts.ui.field.phones'), width: 18, cell: (r: LeadRow) => joined(r.phones) },
          { head: t('accounts.ui.field.emails'), width: 26, cell: (r: LeadRow) => joined(r.emails) },
        ]
      : []),
    { head: t('leads.ui.col.type'), width: 12, cell: (r) => t(`leads.type.${leadType(r.l)}`) },
    { head: t('leads.ui.col.budget'), width: 24, cell: (r) => textCell(budgetRange(r.l)) },
    { head: t('leads.ui.col.stage'), width: 14, cell: (r) => (r.l.stage == null ? null : t(`leads.stage.${r.l.stage as number}`)) },
    { head: t('leads.ui.col.priority'), width: 11, cell: (r) => (r.l.priority == null ? null : t(`leads.priority.${r.l.priority as number}`)) },
    ...(contacts ? [{ head: t('leads.xlsx.agents'), width: 24, cell: (r: LeadRow) => textCell(r.agents) }] : []),
    ...fields.filter(inFile).map(described),
  ];
}

/** Phones or e-mails in one cell, each kept from being read as a formula on its own ("+30 …; +30 …" as typed). */
const joined = (values: string[] | null) => (values ?? []).filter((v) => v.trim()).map((v) => safeText(v)).join('; ') || null;

/**
 * Whether the file names people beyond the leads' clients (their phones and e-mails, the agents, the
 * agent and sources picked in the filter): for the staff, as the accounts show them; for an API key
 * only when its areas include reading accounts (decision 080), since leads alone never gave a key
 * the clients' contacts in bulk, nor an account's name by its number.
 */
export const leadFileHasContacts = (apiKeyScopes: TApiKeyScopes | null) => apiKeyScopes == null || apiKeyScopes.accounts !== 'none';

/** The names a filter picks by ids (sources, the agent), read once for every language of the filter's line. */
type FilterNames = { sources: string[]; agent: string | null };

/** Row 2: what the filter picks, as the list's filter card says it. */
function filterText(f: TLeadDownload, t: T, culture: TCulture, names: FilterNames): string {
  const d = (s: string | null | undefined) => (s ? [s.slice(8, 10), s.slice(5, 7), s.slice(0, 4)].join(culture === 'ru' ? '.' : '/') : null);
  const labelled = (key: string, value: string | null | undefined) => (value ? `${t(key)}: ${value}` : null);
  const parts = [
    f.service ? labelled('leads.ui.filter.service', serviceOptions(t).find((o) => o.value === f.service)?.text) : null,
    labelled('leads.ui.filter.sources', names.sources.join(', ')),
    labelled('leads.ui.filter.stages', f.stages.map((s) => t(`leads.stage.${s}`)).join(', ')),
    labelled('leads.ui.filter.priorities', f.priorities.map((p) => t(`leads.priority.${p}`)).join(', ')),
    labelled('leads.ui.filter.startDate', d(f.startDate)),
    labelled('leads.ui.filter.endDate', d(f.endDate)),
    labelled('leads.ui.filter.budgetMin', f.budgetRangeMin == null ? null : formatEuro(f.budgetRangeMin)),
    labelled('leads.ui.filter.budgetMax', f.budgetRangeMax == null ? null : formatEuro(f.budgetRangeMax)),
    labelled('leads.ui.filter.agent', names.agent),
    labelled('leads.ui.filter.lastName', f.lastName?.trim()),
  ].filter(Boolean);
  return `${t('leads.xlsx.filter')}: ${parts.length ? parts.join('; ') : t('leads.xlsx.all')}`;
}

/**
 * POST /api/lead/download: Leads.xlsx, every lead the list's filter matches (up to LEAD_DOWNLOAD_MAX,
 * drafts left out as the list leaves them) in the list's order, in the reader's language, with real
 * number and date cells and no text a spreadsheet could run as a formula.
 */
export async function leadsWorkbook(app: FastifyInstance, f: TLeadDownload, t: T, culture: TCulture, contacts: boolean): Promise<Download> {
  const tz = app.config.timeZone;
  // Made before anything is sent: a described field the file cannot write fails the request whole.
  const columns = leadColumnsOf(t, tz, LEAD_FIELDS, contacts);
  const where = leadConditions(app, f);
  const cond = and(...where);
  // The ids first, in the list's order (a number each), then the rows a page at a time as the file
  // is written. Filtered, the leads found are sorted (a filter may keep few of 100,000).
  const [matched, ids] = await Promise.all([
    where.length ? countListed(app.db, 'leads', cond) : keptListedCount(app.db, 'leads'),
    app.db
      .select({ id: leads.id })
      .from(leads)
      .leftJoin(accounts, eq(accounts.id, leads.accountId))
      .where(and(cond, notDraft('leads', leads.id)))
      .orderBy(...leadOrder(f, culture, where.length > 0))
      .limit(LEAD_DOWNLOAD_MAX)
      .then((rs) => rs.map((r) => r.id)),
  ]);
  const page = (of: number[]) =>
    app.db
      .select({
        l: Object.fromEntries(READ.map((n) => [n, leadColumns[n]!])),
        account: accounts.displayName,
        phones: accounts.phones,
        emails: accounts.emails,
        // The lead's agents, in one subquery a row of the page (assignments by their parent).
        agents: contacts
          ? sql<string | null>`(select string_agg(x.display_name, ', ' order by x.display_name) from assignments s join accounts x on x.id = s.account_id
          where s.parent = ${ASSIGNMENT_PARENT_LEAD} and s.parent_id = ${leads.id})`
          : sql<null>`null`,
        ...moreNames(culture),
      })
      .from(leads)
      .leftJoin(accounts, eq(accounts.id, leads.accountId))
      .where(inArray(leads.id, of)) as unknown as Promise<LeadRow[]>;
  const nameOf = async (ids: number[]) =>
    (await app.db.select({ name: accounts.displayName }).from(accounts).where(inArray(accounts.id, ids)).orderBy(sql`${accounts.displayName} collate "und-x-icu"`)).map((r) => r.name);
  const names: FilterNames = contacts
    ? { sources: f.sources.length ? await nameOf(f.sources) : [], agent: f.agentId ? ((await nameOf([f.agentId]))[0] ?? null) : null }
    : { sources: f.sources.map((id) => `#${id}`), agent: f.agentId ? `#${f.agentId}` : null };
  const write = async (wb: ExcelJS.stream.xlsx.WorkbookWriter, signal: AbortSignal) => {
    const ws = exportSheet(wb, t('leads.xlsx.sheet'), columns, 5);
    addTitle(ws, t('leads.xlsx.title'), { shown: ids.length, matched, t });
    ws.addRow([safeText(filterText(f, t, culture, names))]).commit();
    addIssued(ws, t('leads.xlsx.issued'), tz);
    return addColumnsTable(ws, columns, inPages(ids, page, (r) => r.l.id as number), signal);
  };
  return { write, filter: await inEveryLanguage(app, (tl, c) => filterText(f, tl, c, names)) };
}
