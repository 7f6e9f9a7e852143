import type ExcelJS from 'exceljs';
import { addTable, DATE_FORMAT, DATE_TIME_FORMAT, EURO_FORMAT, cellDate, cellMoney, safeText, textCell, addIssued, addTitle, exportSheet, addFigures } from '../../lib/excel.ts';
import type { FastifyInstance } from 'fastify';
import {
  STATEMENT_COLUMNS,
  TRANSACTION_FIELD_BY_NAME,
  TRANSACTION_LISTS,
  statementHeadKey,
  transactionOptions,
  type TStatementColumn,
  type TStatementFilter,
  type TStatementItem,
  type TStatementLedgerColumn,
  type TTransactionFieldDescription,
} from '@crm/contract';
import type { SessionUser } from '../../plugins/auth.ts';
import { inEveryLanguage, type Download } from '../../lib/downloads.ts';
import { columnName } from '../../db/schema/objects.ts';
import { accountObjects, isFiltered, requireReadableAccount, statementSql, statementTotals, toStatementItem, type StatementRow, type T } from './payments.service.ts';
import { cursorPages } from '../../lib/cursor.ts';

type Column = { head: string; width: number; style?: Partial<ExcelJS.Style>; cell: (row: StatementRow, item: TStatementItem) => ExcelJS.CellValue };

const money = { numFmt: EURO_FORMAT };
const dateTime = { numFmt: DATE_TIME_FORMAT };
const date = { numFmt: DATE_FORMAT };

/** The ledger's own columns: the number, the kind, the amount as debit or credit, the account's balance after the row, the client's approval. */
function ledgerColumn(c: TStatementLedgerColumn, t: T): Column {
  const head = t(statementHeadKey(c));
  switch (c) {
    case 'referenceNumber':
      return { head, width: 10, cell: (_r, it) => Number(it.referenceNumber) };
    case 'type':
      return { head, width: 12, cell: (_r, it) => t(`payments.type.${it.type}`) };
    case 'debit':
      return { head, width: 14, style: money, cell: (_r, it) => cellMoney(it.debit) };
    case 'credit':
      return { head, width: 14, style: money, cell: (_r, it) => cellMoney(it.credit) };
    case 'balance':
      return { head, width: 16, style: money, cell: (_r, it) => cellMoney(it.balance) };
    case 'confirmedByClientDate':
      return { head, width: 18, style: dateTime, cell: (_r, it) => cellDate(it.confirmedByClientDate) };
  }
}

/** A described field's column: its label as the head, its cells by its type (read from the row's column of the same name). */
function describedColumn(d: TTransactionFieldDescription, t: T): Column {
  const head = t(statementHeadKey(d.name as TStatementColumn));
  const column = columnName(d.name);
  const value = (r: StatementRow) => (r as unknown as Record<string, string | number | null>)[column] ?? null;
  switch (d.type) {
    case 'date-time':
      return { head, width: 18, style: dateTime, cell: (r) => cellDate(value(r) as string | null) };
    case 'date':
      return { head, width: 13, style: date, cell: (r) => cellDate(value(r) as string | null) };
    case 'money':
      return { head, width: 14, style: money, cell: (r) => cellMoney(value(r) as string | null) };
    case 'select': {
      // A list's value as its text; the column as wide as its longest text.
      const texts = new Map(transactionOptions(d.list!, t).map((o) => [o.value, o.text]));
      const width = Math.min(32, Math.max(12, head.length, ...[...texts.values()].map((x) => x.length)) + 2);
      return { head, width, cell: (r) => textCell(texts.get(value(r) as number) ?? null) };
    }
    case 'text':
    case 'textarea':
      return { head, width: 30, cell: (r) => textCell(value(r) as string | null) };
  }
}

/** The statement's columns in the file, in STATEMENT_COLUMNS' order. */
const columnsOf = (t: T): Column[] =>
  STATEMENT_COLUMNS.map((c: TStatementColumn) => {
    const d = TRANSACTION_FIELD_BY_NAME.get(c);
    return d ? describedColumn(d, t) : ledgerColumn(c as TStatementLedgerColumn, t);
  });

/** Row 2: what the filter shows. */
function statementFilterText(f: TStatementFilter, t: T, objectLabel: string | null = null): string {
  const parts = [
    f.type ? t(`payments.type.${f.type}`) : null,
    f.paymentMethod ? t(TRANSACTION_LISTS.paymentMethod.textKey(f.paymentMethod)) : null,
    f.categoryId ? t(TRANSACTION_LISTS.categoryId.textKey(f.categoryId)) : null,
    f.unpaidOnly ? t('payments.filter.unpaidOnly') : null,
    f.objectId ? `${t('fields.transaction.objectId')}: ${objectLabel ?? f.objectId}` : null,
  ].filter(Boolean);
  return `${t('payments.xlsx.filter')}: ${parts.length ? parts.join(', ') : t('payments.filter.all')}`;
}

/**
 * GET /api/transactions/download/{accountId}: Transactions.xlsx, exactly the rows the statement's
 * filter shows (every page), in the reader's language, with real date and number cells and totals.
 */
export async function statementWorkbook(app: FastifyInstance, user: SessionUser, accountId: number, f: TStatementFilter, t: T, culture?: string): Promise<Download> {
  const a = await requireReadableAccount(app.db, user, accountId);
  const tz = app.config.timeZone;
  const totals = await statementTotals(app.db, accountId, f);
  // The property the file is filtered by, named in its filter line (issue 45).
  // Only one of the account's own (or one its rows are tied to): another property is never named, to a client least of all.
  const objectLabel = f.objectId ? ((await accountObjects(app.db, accountId, culture, 'withTied')).find((o) => o.value === f.objectId)?.text ?? null) : null;
  const write = async (wb: ExcelJS.stream.xlsx.WorkbookWriter, signal: AbortSignal) => {
    const columns = columnsOf(t);
    const ws = exportSheet(wb, t('payments.xlsx.sheet'), columns, 6);
    // Row 1: the title (the account's name is text, never a formula).
    addTitle(ws, safeText(`${t('payments.xlsx.title')}: ${a.name}`));
    // Row 2: what the filter shows.
    // With a filter, the shown rows' sum beside it, named so, right above the account's balance.
    const filterRow = ws.addRow([
      statementFilterText(f, t, objectLabel),
      ...(isFiltered(f) ? [null, null, null, null, null, t('payments.shownSum'), Number(totals.shown)] : []),
    ]);
    if (isFiltered(f)) {
      filterRow.getCell(7).numFmt = 'General';
      filterRow.getCell(8).numFmt = EURO_FORMAT;
    }
    filterRow.commit();
    // Row 3: the totals of the shown rows and the account's balance (every row, whatever the
    // filter), real numbers with the euro format.
    // Its labels are texts, whatever format their column has.
    addFigures(ws, [t('payments.totalDebit'), Number(totals.debit), null, t('payments.totalCredit'), Number(totals.credit), null, t('payments.balance'), Number(totals.balance)]);
    // Row 4: when it was issued.
    // and, apart from the balance, the account's unpaid expenses (issue 45).
    addIssued(ws, t('payments.xlsx.issued'), tz, [null, null, null, null, t('payments.toPay'), Number(totals.to_pay)]);
    // Row 6: the column heads.
    // Row 6 the heads; rows from 7: the filtered rows, newest first, as the statement shows them.
    // The rows a page at a time, from a cursor: a statement of any length is never held whole.
    const rows = cursorPages<StatementRow>(app.db, statementSql(accountId, f, tz, null, 0, false));
    const n = await addTable(ws, columns.map((c) => c.head), rows, (raw) => {
      const it = toStatementItem(raw, t);
      return columns.map((c) => c.cell(raw, it));
    }, signal);
    ws.commit();
    return n;
  };
  return { write, filter: await inEveryLanguage(app, (tl) => statementFilterText(f, tl, objectLabel)) };
}
