import type { FastifyInstance } from 'fastify';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type ExcelJS from 'exceljs';
import { DEAL_DOWNLOAD_MAX, DEAL_FIELDS, DEAL_LIST_PARTIES, DEAL_RELATION, DEAL_STAGE_CANCELLED, dealTextKey, formatReferenceNumber, type TCulture, type TDealDownload, type TDealFieldDescription } from '@crm/contract';
import { dealColumns, deals, objects } from '../../db/schema/index.ts';
import { DATE_FORMAT, DATE_TIME_FORMAT, EURO_FORMAT, cellDate, cellMoney, safeText, textCell, addColumnsTable, addIssued, addTitle, exportSheet, type SheetColumn, addFigures } from '../../lib/excel.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { inEveryLanguage, inPages, type Download } from '../../lib/downloads.ts';
import { objectTitle } from '../objects/objects.sql.ts';
import { SORT_SQL, dealTotals, filterConditions, partiesOf, stageText } from './deals.service.ts';
import type { T } from '../../lib/i18n.ts';

type Party = { accountId: number; account: string; relation: number };
/** Described fields the file shows in its own way: the type and the stage, by their names. */
const SHOWN_BY_NAME: ReadonlySet<string> = new Set(['dealType', 'dealStage']);
/** A described field the file writes: every one but a long text (the notes). */
const inFile = (d: TDealFieldDescription) => d.type !== 'textarea';
function unwritten(d: TDealFieldDescription): never {
  throw new Error(`Deals.xlsx has no column for a ${d.type} field (${d.name}): write it as an agent reads it in dealColumnsOf`);
}
/** The deal's columns the file reads. */
const SHOWN = DEAL_FIELDS.filter(inFile).map((d) => d.name);
type DealRow = {
  d: { id: number; createdOn: Date } & Record<string, unknown>;
  ref: number | null;
  title: string | null;
  parties: Party[];
};
type Column = SheetColumn<DealRow>;

const money = { numFmt: EURO_FORMAT };
const date = { numFmt: DATE_FORMAT };
const dateTime = { numFmt: DATE_TIME_FORMAT };
const field = (r: DealRow, name: string) => (r.d[name] ?? null) as string | number | null;

/**
 * The file's columns: the list's, then every other described field a deal keeps but its long texts,
 * in the description's order (a field added to the description is in the file without a line here).
 */
export function dealColumnsOf(t: T, tz: string, fields: readonly TDealFieldDescription[] = DEAL_FIELDS): Column[] {
  const parties = (relation: number) => (r: DealRow) =>
    textCell(
      r.parties
        .filter((p) => p.relation === relation)
        .map((p) => p.account)
        .join(', '),
    );
  const amount = (name: string, width = 15): Column => ({ head: t(`fields.deal.${name}`), width, style: money, cell: (r) => cellMoney(field(r, name)) });
  const day = (name: string): Column => ({ head: t(`fields.deal.${name}`), width: 13, style: date, cell: (r) => cellDate(field(r, name) as string | null) });
  const described = (d: TDealFieldDescription): Column =>
    d.type === 'currency'
      ? amount(d.name)
      : d.type === 'date'
        ? day(d.name)
        : d.type === 'number'
          ? { head: t(`fields.deal.${d.name}`), width: 12, cell: (r) => field(r, d.name) }
          : d.type === 'text'
            ? { head: t(`fields.deal.${d.name}`), width: 18, cell: (r) => textCell(field(r, d.name) == null ? null : String(field(r, d.name))) }
            : // A choice or a yes/no written as its stored value would read as a number or "true": a new
              // kind of field is given its own column here first (the field-reach test fails until then).
              unwritten(d);
  return [
    { head: t('deals.xlsx.number'), width: 9, cell: (r) => r.d.id },
    { head: t('deals.xlsx.created'), width: 17, style: dateTime, cell: (r) => cellDate(toLocalDateTime(r.d.createdOn, tz)) },
    { head: t('deals.ui.col.type'), width: 10, cell: (r) => t(`deals.type.${field(r, 'dealType')}`) },
    { head: t('deals.ui.col.stage'), width: 22, cell: (r) => stageText(t, Number(field(r, 'dealStage')), Number(field(r, 'dealType'))) },
    { head: t('deals.ui.col.object'), width: 10, cell: (r) => (r.ref == null ? null : `#${formatReferenceNumber(r.ref)}`) },
    { head: t('deals.xlsx.objectTitle'), width: 30, cell: (r) => textCell(r.title) },
    ...DEAL_LIST_PARTIES.map((key) => ({ head: t(`deals.relation.${DEAL_RELATION[key]}`), width: 24, cell: parties(DEAL_RELATION[key]) })),
    { head: t(`deals.relation.${DEAL_RELATION.partner}`), width: 24, cell: parties(DEAL_RELATION.partner) },
    ...fields.filter((d) => inFile(d) && !SHOWN_BY_NAME.has(d.name)).map(described),
  ];
}

/** Row 2: what the filter picks, as the list's filter card says it. */
function filterText(f: TDealDownload, t: T, culture: TCulture, agent: string | null): string {
  const d = (s: string | null | undefined) => (s ? [s.slice(8, 10), s.slice(5, 7), s.slice(0, 4)].join(culture === 'ru' ? '.' : '/') : null);
  const range = (label: string, from: string | null | undefined, till: string | null | undefined) => (from || till ? `${label}: ${d(from) ?? '…'} – ${d(till) ?? '…'}` : null);
  const parts = [
    f.dealType ? t(`deals.type.${f.dealType}`) : null,
    f.stages.length ? f.stages.map((s) => stageText(t, s, f.dealType)).join(', ') : null,
    range(t(dealTextKey('fields.deal.dateOfDeposit', f.dealType)), f.depositFrom, f.depositTill),
    range(t('fields.deal.endDate'), f.endDateFrom, f.endDateTill),
    agent ? `${t('deals.ui.filter.agent')}: ${agent}` : null,
    f.lastName?.trim() ? `${t('deals.ui.filter.lastName')}: ${f.lastName.trim()}` : null,
    f.object?.trim() ? `${t('deals.ui.filter.object')}: ${f.object.trim()}` : null,
  ].filter(Boolean);
  return `${t('deals.xlsx.filter')}: ${parts.length ? parts.join('; ') : t('deals.xlsx.all')}`;
}

/**
 * POST /api/Deal/download: Deals.xlsx, every deal the list's filter matches (up to
 * DEAL_DOWNLOAD_MAX) in the list's order, in the reader's language, with real number and date cells,
 * the footer's totals above the table, and no text a spreadsheet could run as a formula.
 */
export async function dealsWorkbook(app: FastifyInstance, f: TDealDownload, t: T, culture: TCulture): Promise<Download> {
  const cond = and(...(await filterConditions(app.db, f)));
  const withCancelled = f.stages.includes(DEAL_STAGE_CANCELLED);
  const dir = f.sortDir === 'asc' ? sql`asc` : sql`desc`;
  // The ids first, in the list's order (a number each), then the rows a page at a time as the file is written.
  const [totals, ids] = await Promise.all([
    dealTotals(app.db, cond, withCancelled),
    app.db
      .select({ id: deals.id })
      .from(deals)
      .leftJoin(objects, eq(objects.id, deals.objectId))
      .where(cond)
      .orderBy(...SORT_SQL[f.sortBy](dir))
      .limit(DEAL_DOWNLOAD_MAX)
      .then((rs) => rs.map((r) => r.id)),
  ]);
  const page = (of: number[]) =>
    app.db
      .select({ d: { id: deals.id, createdOn: deals.createdOn, ...Object.fromEntries(SHOWN.map((n) => [n, dealColumns[n]!])) }, ref: objects.referenceNumber, title: objectTitle(culture, 'objects'), parties: partiesOf(sql`${deals.id}`) })
      .from(deals)
      .leftJoin(objects, eq(objects.id, deals.objectId))
      .where(inArray(deals.id, of)) as unknown as Promise<DealRow[]>;
  const tz = app.config.timeZone;
  const agent = f.agentId ? ((await app.db.execute<{ name: string }>(sql`select display_name as name from accounts where id = ${f.agentId}`)).rows[0]?.name ?? null) : null;
  const write = async (wb: ExcelJS.stream.xlsx.WorkbookWriter, signal: AbortSignal) => {
    const columns = dealColumnsOf(t, tz);
    const ws = exportSheet(wb, t('deals.xlsx.sheet'), columns, 6);
    addTitle(ws, t('deals.xlsx.title'), { shown: ids.length, matched: totals.n, t });
    ws.addRow([safeText(filterText(f, t, culture, agent))]).commit();
    // Row 3: the totals, as the list's footer shows them (cancelled deals left out unless picked).
    const s = totals.sums;
    addFigures(ws, [
      t('deals.sums.sales', { count: s.saleCount }),
      Number(s.saleTotal),
      null,
      t('deals.sums.rentals', { count: s.rentCount }),
      Number(s.rentTotal),
      null,
      t('fields.deal.commission'),
      Number(s.commission),
    ]);
    addIssued(ws, t('deals.xlsx.issued'), tz, [null, withCancelled ? null : t('deals.sums.noCancelled')]);
    return addColumnsTable(ws, columns, inPages(ids, page, (r) => r.d.id), signal);
  };
  return { write, filter: await inEveryLanguage(app, (tl, c) => filterText(f, tl, c, agent)) };
}
