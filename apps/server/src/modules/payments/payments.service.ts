import type { FastifyInstance } from 'fastify';
import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  APPROVAL_REVERT_HOURS,
  EXPENSE_STATUS_NOT_PAID,
  EXPENSE_STATUS_PAID,
  OWNER_RELATION,
  balanceStateOf,
  type TBalanceState,
  PAYMENT_METHOD_NAMES,
  TRANSACTION_FIELDS,
  TRANSACTION_LISTS,
  transactionFieldsOf,
  transactionListsOf,
  transactionOptions,
  type TCulture,
  type TExpenseForm,
  type TIncomeForm,
  type TPaymentAccountsQuery,
  type TSelectOption,
  type TStatementAnswer,
  type TStatementFilter,
  type TStatementItem,
  type TTransactionListName,
  type TTransactionType,
} from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { accounts, paymentAccounts, transactionAttachments, transactions } from '../../db/schema/index.ts';
import { accessDenied, AppError, notFound } from '../../lib/errors.ts';
import { logAction } from '../../lib/audit.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { collationOf } from '../accounts/accounts.lists.ts';
import { escapeLike } from '../accounts/accounts.sql.ts';
import { objectTitle } from '../objects/objects.sql.ts';
import { noteFilesToRemove, removeNotedFiles } from '../../storage/pending-files.ts';
import { assertAccountReadable, canEditPayments, isAccountClient, isPaymentsStaff, ownAccountOnly } from './payments.access.ts';
import { refDigits } from '../../lib/reference-number.ts';

export type T = (key: string, params?: Record<string, string | number>) => string;
export type Caller = { user: SessionUser; actor: { id: number | null; name: string | null } };

// ---------- select lists ----------

/** The lists of a kind's described fields (a form's `lists`), or of every kind (the statement's filters), in the reader's language. */
export function transactionLists(t: T, kind?: TTransactionType): Record<string, TSelectOption[]> {
  const lists = kind ? transactionListsOf(kind) : (Object.keys(TRANSACTION_LISTS) as TTransactionListName[]);
  return Object.fromEntries(lists.map((l) => [l, transactionOptions(l, t, kind)]));
}

// ---------- shared SQL ----------

/** A moment as the API's local date-time text, computed by PostgreSQL (no formatting per row in JS). */
export const localText = (col: SQL | unknown, timeZone: string) => sql<string | null>`to_char(${col} at time zone ${timeZone}, 'YYYY-MM-DD"T"HH24:MI:SS')`;

/** The account a payments call names, with the caller's right to read it checked (404, then 403). */
export async function requireReadableAccount(db: Db | Tx, user: SessionUser, accountId: number) {
  const [a] = await db
    .select({ id: accounts.id, name: accounts.displayName, emails: accounts.emails, createdOn: accounts.createdOn, hasTransactions: accounts.hasTransactions })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .limit(1);
  // A client learns nothing about accounts that are not its own, not even whether they exist.
  if (!a) {
    assertAccountReadable(user, accountId);
    throw notFound('payments.accountNotFound');
  }
  assertAccountReadable(user, accountId);
  return a;
}

type TMoneyField = Extract<(typeof TRANSACTION_FIELDS)[number], { type: 'money' }>['name'];
const columnsOfTransactions = getTableColumns(transactions) as unknown as Record<string, AnyPgColumn>;
/**
 * Every column of a transaction, money as PostgreSQL writes it ("80.50"): the pool's numeric
 * parser would read it as a JS number.
 */
export const transactionColumns = () => ({
  ...getTableColumns(transactions),
  ...(Object.fromEntries(TRANSACTION_FIELDS.filter((d) => d.type === 'money').map((d) => [d.name, sql<string>`${columnsOfTransactions[d.name]}::text`])) as Record<TMoneyField, SQL<string>>),
});

/** A transaction's row with the caller's right to read its account checked. */
export async function requireReadableTransaction(db: Db | Tx, user: SessionUser, id: number) {
  const [row] = await db.select(transactionColumns()).from(transactions).where(eq(transactions.id, id)).limit(1);
  if (!row) {
    // A client learns nothing about transactions of other accounts, not even whether they exist.
    if (!isPaymentsStaff(user)) throw accessDenied();
    throw notFound('payments.notFound');
  }
  assertAccountReadable(user, row.accountId);
  return row;
}

/** The transaction's changes make the account a payments account and move its "modified on". */
/**
 * The statements' lock (migration 0114's triggers take it to sum an account's balances again),
 * taken FIRST by every writer of an account's transactions, before any row of them or the account:
 * the trigger then rewrites later rows' balances, so a writer holding a row while it waits for the
 * lock would wait on another that holds the lock and waits for that row (a deadlock). In id order.
 */
export async function lockStatements(tx: Tx, accountIds: number[]) {
  for (const a of [...new Set(accountIds)].sort((x, y) => x - y)) await tx.execute(sql`select pg_advisory_xact_lock(hashtext('transactions_balance'), ${a}::int)`);
}

/** The account a transaction is on, its statement locked first (lockStatements); undefined when there is no such transaction. */
export async function lockStatementOf(tx: Tx, transactionId: number): Promise<number | undefined> {
  for (;;) {
    const [row] = await tx.select({ accountId: transactions.accountId }).from(transactions).where(eq(transactions.id, transactionId));
    if (!row) return undefined;
    await lockStatements(tx, [row.accountId]);
    // Moved to another account (a merge) meanwhile: that one's statement is locked too.
    const [now] = await tx.select({ accountId: transactions.accountId }).from(transactions).where(eq(transactions.id, transactionId));
    if (!now || now.accountId === row.accountId) return now?.accountId;
  }
}

export async function touchPaymentAccount(tx: Tx, accountId: number) {
  await tx
    .insert(paymentAccounts)
    .values({ accountId, transactionsModifiedOn: sql`now()` as never })
    .onConflictDoUpdate({ target: paymentAccounts.accountId, set: { transactionsModifiedOn: sql`now()` } });
  await tx.update(accounts).set({ hasTransactions: true }).where(and(eq(accounts.id, accountId), eq(accounts.hasTransactions, false)));
}

// ---------- the owner's properties ----------

/** A property as the statement and the forms name it: "0042 Title" (the title in the reader's language). */
export const objectLabelSql = (culture: string | undefined) => sql<string>`${refDigits(sql.raw('objects.reference_number'))} || coalesce(' ' || ${objectTitle(culture, 'objects')}, '')`;

/**
 * The account's own properties (its owner links; drafts left out), as select options by reference
 * number; with `tied` also those its rows are tied to (a property sold since stays on its statement)
 * or the one id given (what a form holds).
 */
export async function accountObjects(db: Db | Tx, accountId: number, culture: string | undefined, tied: 'withTied' | number | null) {
  // One list of ids, then each property by its key: an "or" of the two lists made PostgreSQL read
  // every property (50k in the bench, 46 ms) to test each against both.
  const also =
    tied === 'withTied'
      ? sql` union all select t.object_id from transactions t where t.account_id = ${accountId} and t.object_id is not null`
      : tied !== null
        ? sql` union all select ${tied}::int`
        : sql``;
  const res = await db.execute(sql`
    select objects.id as value, ${objectLabelSql(culture)} as text
    from objects
    where objects.id in (
      select oa.object_id from object_accounts oa join objects d on d.id = oa.object_id and not d.draft
      where oa.account_id = ${accountId} and oa.relation = ${OWNER_RELATION}${also})
    order by objects.reference_number, objects.id`);
  return (res.rows as { value: number; text: string }[]).map((r) => ({ value: r.value, text: r.text, parent: null }));
}

/** Whether the property is one of the account's own (an owner link). */
export async function isAccountObject(db: Db | Tx, accountId: number, objectId: number): Promise<boolean> {
  const res = await db.execute(sql`select 1 from object_accounts where account_id = ${accountId} and object_id = ${objectId} and relation = ${OWNER_RELATION} limit 1`);
  return res.rows.length > 0;
}

// ---------- payments list ----------

/**
 * Any word of a name starts with the typed text: the search normal form (accents and case ignored,
 * final sigma folded) over every name of the account in both scripts, and for Latin letters also the
 * names' Latin skeleton (decision 007), so `papad` finds Παπαδοπούλου and `ιβαν` finds Ιβάνοβα.
 */
export function nameWordStarts(text: string): SQL {
  const norm = sql`crm_search_norm(${escapeLike(text)})`;
  const asTyped = sql`(${accounts.searchText} like ${norm} || '%' or ${accounts.searchText} like '% ' || ${norm} || '%')`;
  if (/[\u0370-\u03ff\u1f00-\u1fff\u0400-\u04ff]/.test(text)) return asTyped;
  const skel = sql`crm_latin_skeleton(${text.replace(/[\\%_]/g, ' ')})`;
  return sql`(${asTyped} or (length(${skel}) >= 1 and ${accounts.searchText} like '% ' || ${skel} || '%'))`;
}

/** The words of a typed name (spaces, commas and the dots of initials between them), at most five. */
export const nameWords = (text: string) => text.split(/[\s,.;]+/).filter(Boolean).slice(0, 5);

/** GET /api/transactions/accounts: the accounts that keep payments (a client: its own only). */
export async function listPaymentAccounts(app: FastifyInstance, user: SessionUser, q: TPaymentAccountsQuery, culture: TCulture) {
  const own = ownAccountOnly(user);
  const text = q.searchStr?.trim();
  const modified = paymentAccounts.transactionsModifiedOn;
  const dir = sql.raw(q.sortDir === 'asc' ? 'asc' : 'desc');
  const transactionModifiedOn = localText(modified, app.config.timeZone);
  if (!text && q.sortBy !== 'name') {
    // The usual list, newest change first: the page is read from payment_accounts' partial index
    // of listed accounts alone (the flag is mirrored there), then its accounts by their key.
    const listed = and(sql`${paymentAccounts.listed}`, own !== null ? eq(paymentAccounts.accountId, own) : undefined);
    const [{ n }] = (await app.db.select({ n: sql<number>`count(*)::int` }).from(paymentAccounts).where(listed)) as [{ n: number }];
    const page = app.db
      .select({ accountId: paymentAccounts.accountId })
      .from(paymentAccounts)
      .where(listed)
      .orderBy(sql`${modified} ${dir}`, sql`${paymentAccounts.accountId} ${dir}`)
      .limit(q.perPage)
      .offset((q.currentPage - 1) * q.perPage)
      .as('page');
    const rows = await app.db
      .select({ id: accounts.id, name: accounts.displayName, transactionModifiedOn })
      .from(page)
      .innerJoin(paymentAccounts, eq(paymentAccounts.accountId, page.accountId))
      .innerJoin(accounts, eq(accounts.id, page.accountId))
      .orderBy(sql`${modified} ${dir}`, sql`${paymentAccounts.accountId} ${dir}`);
    return { items: await withBalances(app.db, rows), totalRows: n };
  }
  // Both flags say the same; the account's lets a name search start from its partial index.
  const where: SQL[] = [sql`${paymentAccounts.listed}`, sql`${accounts.hasTransactions}`];
  if (own !== null) where.push(sql`${accounts.id} = ${own}`);
  // Each word typed starts a word of the name, in any order: the name as the list shows it (last
  // name first) finds the account as well as first name first, and "Смирнова О." finds Smirnova Olga.
  if (text) for (const word of nameWords(text)) where.push(nameWordStarts(word));
  const cond = and(...where);
  const order =
    q.sortBy === 'name'
      ? [sql`${accounts.displayName} collate ${collationOf(culture)} ${dir}`, sql`${accounts.id} ${dir}`]
      : [sql`${modified} ${dir}`, sql`${paymentAccounts.accountId} ${dir}`];
  // A name search matches a few hundred accounts at most: the page and the count are one statement
  // (one pass over the name index); a page past the end counts apart.
  const rows = await app.db
    .select({ id: accounts.id, name: accounts.displayName, transactionModifiedOn, total: sql<number>`(count(*) over ())::int` })
    .from(paymentAccounts)
    .innerJoin(accounts, eq(accounts.id, paymentAccounts.accountId))
    .where(cond)
    .orderBy(...order)
    .limit(q.perPage)
    .offset((q.currentPage - 1) * q.perPage);
  const total =
    rows[0]?.total ??
    (q.currentPage > 1
      ? ((await app.db.select({ n: sql<number>`count(*)::int` }).from(paymentAccounts).innerJoin(accounts, eq(accounts.id, paymentAccounts.accountId)).where(cond)) as [{ n: number }])[0].n
      : 0);
  return { items: await withBalances(app.db, rows.map(({ total: _, ...r }) => r)), totalRows: total };
}

/**
 * An income adds to an account's balance, an expense the agency paid takes from it; an unpaid expense
 * leaves it (issue 45: it is "to pay", apart), and so does one the owner paid directly (status 2:
 * nothing left what the agency holds). Over `transactions` aliased t.
 */
const paidAmountSql = sql`case when t.type = 'income' then t.amount when t.status = ${EXPENSE_STATUS_PAID} or t.status is null then -t.amount else 0 end`;
const unpaidSql = sql`t.type = 'expense' and t.status = ${EXPENSE_STATUS_NOT_PAID}`;

/**
 * The page's accounts with their balances (what was paid) and unpaid sums: one statement for the
 * page, summed from transactions_account_sums_idx alone (0073), never a query per row.
 */
async function withBalances<R extends { id: number }>(db: Db, rows: R[]): Promise<(R & { balance: string; balanceState: TBalanceState; toPay: string })[]> {
  const sums = new Map<number, { balance: string; to_pay: string }>();
  if (rows.length) {
    const res = await db.execute(sql`
      select t.account_id as id,
             coalesce(sum(${paidAmountSql}), 0)::numeric(16,2)::text as balance,
             coalesce(sum(t.amount) filter (where ${unpaidSql}), 0)::numeric(16,2)::text as to_pay
      from transactions t
      where t.account_id in (${sql.join(
        rows.map((r) => sql`${r.id}`),
        sql`, `,
      )})
      group by t.account_id`);
    for (const r of res.rows as { id: number; balance: string; to_pay: string }[]) sums.set(r.id, r);
  }
  return rows.map((r) => {
    const s = sums.get(r.id) ?? { balance: '0.00', to_pay: '0.00' };
    return { ...r, balance: s.balance, balanceState: balanceStateOf(s.balance), toPay: s.to_pay };
  });
}

// ---------- statement ----------

/** The filter's conditions on `transactions` (aliased t in the statement's SQL). */
export function filterSql(accountId: number, f: TStatementFilter): SQL {
  const parts: SQL[] = [sql`t.account_id = ${accountId}`];
  if (f.type) parts.push(sql`t.type = ${f.type}`);
  if (f.paymentMethod) parts.push(sql`t.payment_method = ${f.paymentMethod}`);
  if (f.categoryId) parts.push(sql`t.category_id = ${f.categoryId}`);
  if (f.unpaidOnly) parts.push(sql`t.type = 'expense' and t.status = ${EXPENSE_STATUS_NOT_PAID}`);
  if (f.objectId) parts.push(sql`t.object_id = ${f.objectId}`);
  return sql.join(parts, sql` and `);
}

export type StatementRow = {
  id: number;
  reference_number: number;
  type: TTransactionType;
  transaction_date: string;
  amount: string;
  balance: string;
  status: number | null;
  category_id: number | null;
  object_id: number | null;
  object_title: string | null;
  payment_method: number;
  confirmed: string | null;
  /** The approval's moment in epoch milliseconds (whether it may still be reverted). */
  confirmed_ms: number | null;
  requested: string | null;
  expiration_date: string | null;
  start_date: string | null;
  end_date: string | null;
  payment_date: string | null;
  attachments: { id: number; name: string }[] | null;
};

/**
 * Whether the client's approval of an expense may still be reverted (on the mailed link's page and on
 * the statement alike): it is approved, the expense is still not paid, and the approval is at most
 * APPROVAL_REVERT_HOURS old.
 */
export function canRevertApproval(e: { confirmedByClientDate: Date | null; status: number | null }, now = Date.now()): boolean {
  return !!e.confirmedByClientDate && e.status === EXPENSE_STATUS_NOT_PAID && now - e.confirmedByClientDate.getTime() < APPROVAL_REVERT_HOURS * 3600 * 1000;
}

/** Whether the statement shows only some of the account's rows. */
export const isFiltered = (f: TStatementFilter) => Boolean(f.type || f.paymentMethod || f.categoryId || f.unpaidOnly || f.objectId);

/**
 * The filtered rows, newest first, each with the account's balance after it: the running sum over
 * all the account's rows oldest first (date, then id), kept on each row by the database (0114,
 * decision 112), so a page reads its own rows only. A filter chooses the rows shown; it does not
 * change what a row's "Balance" is. `limit` null: every row (the download).
 */
export async function statementRows(db: Db | Tx, accountId: number, f: TStatementFilter, timeZone: string, limit: number | null, offset: number, withAttachments = true, culture?: string) {
  const res = await db.execute(statementSql(accountId, f, timeZone, limit, offset, withAttachments, culture));
  return res.rows as StatementRow[];
}

/** The statement's query: the filtered rows of the account's ledger with the kept running balance, newest first (a page of them, or all). */
export function statementSql(accountId: number, f: TStatementFilter, timeZone: string, limit: number | null, offset: number, withAttachments = true, culture?: string) {
  return sql`
    with f as (
      select t.id, t.reference_number, t.type, t.transaction_date, t.amount, t.balance, t.status, t.category_id, t.object_id, t.payment_method,
             t.confirmed_by_client_date, t.approval_requested_on, t.expiration_date, t.start_date, t.end_date, t.payment_date
      from transactions t
      where ${filterSql(accountId, f)}
      order by t.transaction_date desc, t.id desc
      ${limit === null ? sql`` : sql`limit ${limit} offset ${offset}`}
    )
    select f.id, f.reference_number, f.type,
           to_char(f.transaction_date at time zone ${timeZone}, 'YYYY-MM-DD"T"HH24:MI:SS') as transaction_date,
           f.amount::text as amount, f.balance::numeric(16,2)::text as balance, f.status, f.category_id, f.payment_method,
           f.object_id, (select ${objectLabelSql(culture)} from objects where objects.id = f.object_id) as object_title,
           to_char(f.confirmed_by_client_date at time zone ${timeZone}, 'YYYY-MM-DD"T"HH24:MI:SS') as confirmed,
           (extract(epoch from f.confirmed_by_client_date) * 1000)::float8 as confirmed_ms,
           to_char(f.approval_requested_on at time zone ${timeZone}, 'YYYY-MM-DD"T"HH24:MI:SS') as requested,
           f.expiration_date::text as expiration_date, f.start_date::text as start_date, f.end_date::text as end_date, f.payment_date::text as payment_date
           ${withAttachments ? sql`, (select json_agg(json_build_object('id', a.id, 'name', a.user_name) order by a.id) from transaction_attachments a where a.transaction_id = f.id) as attachments` : sql``}
    from f
    order by f.transaction_date desc, f.id desc`;
}

export function toStatementItem(r: StatementRow, t: T): TStatementItem {
  const isDebit = r.type === 'expense';
  return {
    id: r.id,
    referenceNumber: String(r.reference_number),
    type: r.type,
    transactionDate: r.transaction_date,
    isDebit,
    debit: isDebit ? r.amount : null,
    credit: isDebit ? null : r.amount,
    balance: r.balance,
    status: r.status === null ? null : t(`payments.status.${r.status}`),
    statusId: r.status,
    categoryId: r.category_id,
    categoryName: r.category_id === null ? null : t(`payments.category.${r.category_id}`),
    objectId: r.object_id,
    objectTitle: r.object_title,
    confirmedByClientDate: r.confirmed,
    approvalRequestedOn: r.requested,
    canRevertApproval: canRevertApproval({ confirmedByClientDate: r.confirmed_ms === null ? null : new Date(r.confirmed_ms), status: r.status }),
    expirationDate: r.expiration_date,
    startDate: r.start_date,
    endDate: r.end_date,
    paymentDate: r.payment_date,
    paymentMethod: PAYMENT_METHOD_NAMES[r.payment_method] ?? 'Banking',
    paymentMethodId: r.payment_method,
    attachments: r.attachments ?? [],
  };
}

/**
 * In one statement over the account's rows: the account's balance (every row, whatever the filter),
 * the filtered rows' count, debit, credit and sum (credit less debit), and the account's unpaid
 * expenses.
 */
export async function statementTotals(db: Db | Tx, accountId: number, f: TStatementFilter) {
  const shown = filterSql(accountId, f);
  const res = await db.execute(sql`
    select (count(*) filter (where ${shown}))::int as n,
           coalesce(sum(t.amount) filter (where t.type = 'expense' and ${shown}), 0)::numeric(16,2)::text as debit,
           coalesce(sum(t.amount) filter (where t.type = 'income' and ${shown}), 0)::numeric(16,2)::text as credit,
           coalesce(sum(case when t.type = 'income' then t.amount else -t.amount end) filter (where ${shown}), 0)::numeric(16,2)::text as shown,
           coalesce(sum(${paidAmountSql}), 0)::numeric(16,2)::text as balance,
           (count(*) filter (where ${unpaidSql}))::int as unpaid,
           coalesce(sum(t.amount) filter (where ${unpaidSql}), 0)::numeric(16,2)::text as to_pay
    from transactions t
    where t.account_id = ${accountId}`);
  return res.rows[0] as { n: number; debit: string; credit: string; shown: string; balance: string; unpaid: number; to_pay: string };
}

/** GET /api/transactions?accountId=: the statement, one page of it. */
export async function getStatement(
  app: FastifyInstance,
  user: SessionUser,
  accountId: number,
  f: TStatementFilter,
  paging: { perPage: number; currentPage: number },
  t: T,
  culture?: string,
): Promise<TStatementAnswer> {
  const a = await requireReadableAccount(app.db, user, accountId);
  const tz = app.config.timeZone;
  const [totals, rows, objectOptions] = await Promise.all([
    statementTotals(app.db, accountId, f),
    statementRows(app.db, accountId, f, tz, paging.perPage, (paging.currentPage - 1) * paging.perPage, true, culture),
    accountObjects(app.db, accountId, culture, 'withTied'),
  ]);
  return {
    id: a.id,
    accountDisplayName: a.name,
    accountEmail: a.emails[0] ?? null,
    accountCreatedOn: toLocalDateTime(a.createdOn, tz)!,
    balance: totals.balance,
    balanceState: balanceStateOf(totals.balance),
    toPay: totals.to_pay,
    shownSum: isFiltered(f) ? totals.shown : null,
    totalDebit: totals.debit,
    totalCredit: totals.credit,
    items: rows.map((r) => toStatementItem(r, t)),
    totalRows: totals.n,
    unpaidCount: totals.unpaid,
    objects: objectOptions,
    canEdit: canEditPayments(user),
    canApprove: isAccountClient(user, accountId),
    lists: transactionLists(t) as TStatementAnswer['lists'],
  };
}

// ---------- forms ----------

async function attachmentsOf(db: Db | Tx, transactionId: number) {
  const rows = await db
    .select({ id: transactionAttachments.id, name: transactionAttachments.userName })
    .from(transactionAttachments)
    .where(eq(transactionAttachments.transactionId, transactionId))
    .orderBy(transactionAttachments.id);
  return rows.map((r) => ({ ...r, state: 1 }));
}

/** The current time in the agency's zone, to the minute: a new transaction's date. */
const nowLocal = (timeZone: string) => `${toLocalDateTime(new Date(), timeZone)!.slice(0, 16)}:00`;

type TForm<K extends TTransactionType> = K extends 'income' ? TIncomeForm : TExpenseForm;
type TFormValues = Record<string, string | number | null>;

/** A blank form's described values: no amount, now as the date and time, a list's default, the rest not set. */
function blankValues(kind: TTransactionType, timeZone: string): TFormValues {
  return Object.fromEntries(transactionFieldsOf(kind).map((d) => [d.name, d.type === 'money' ? '' : d.type === 'date-time' ? nowLocal(timeZone) : (d.default ?? null)]));
}

/** A stored transaction's described values as its form shows them; what is the agency's own stays with the agency. */
function storedValues(kind: TTransactionType, row: Record<string, unknown>, timeZone: string, staff: boolean): TFormValues {
  return Object.fromEntries(
    transactionFieldsOf(kind).map((d) => {
      if (d.staffOnly && !staff) return [d.name, null];
      const v = row[d.name];
      if (d.type === 'date-time') return [d.name, toLocalDateTime(v as Date | null, timeZone)];
      return [d.name, (v as string | number | null | undefined) ?? d.default ?? null];
    }),
  );
}

/** The form of a kind around its described values (the record's own fields first). */
function formOf<K extends TTransactionType>(
  kind: K,
  record: { id: number | null; accountId: number; version: number | null; accountDisplayName: string; referenceNumber: string | null },
  values: TFormValues,
  rest: { attachments: TIncomeForm['attachments']; canEdit: boolean; confirmedByClientDate: string | null; approvalRequestedOn: string | null; objects: TIncomeForm['objects'] },
  t: T,
): TForm<K> {
  const form = {
    displayFields: { accountDisplayName: record.accountDisplayName, referenceNumber: record.referenceNumber },
    updateFields: { id: record.id, accountId: record.accountId, version: record.version, ...values },
    lists: transactionLists(t, kind),
    attachments: rest.attachments,
    canEdit: rest.canEdit,
    confirmedByClientDate: rest.confirmedByClientDate,
    objects: rest.objects,
    ...(kind === 'expense' ? { approvalRequestedOn: rest.approvalRequestedOn } : {}),
  };
  // The answer's schema (made from the same description) checks the shape on the way out.
  return form as unknown as TForm<K>;
}

/** GET /api/transactions/addIncome|addExpense?accountId=: a blank form for the account. */
export async function blankForm(app: FastifyInstance, user: SessionUser, type: TTransactionType, accountId: number, t: T, culture?: string): Promise<TIncomeForm | TExpenseForm> {
  const a = await requireReadableAccount(app.db, user, accountId);
  return formOf(
    type,
    { id: null, accountId, version: null, accountDisplayName: a.name, referenceNumber: null },
    blankValues(type, app.config.timeZone),
    { attachments: [], canEdit: canEditPayments(user), confirmedByClientDate: null, approvalRequestedOn: null, objects: await accountObjects(app.db, accountId, culture, null) },
    t,
  );
}

/** GET /api/transactions/editIncome|editExpense/{id}: the transaction as its form shows it. */
export async function transactionForm(app: FastifyInstance, db: Db | Tx, user: SessionUser, type: TTransactionType, id: number, t: T, culture?: string): Promise<TIncomeForm | TExpenseForm> {
  const row = await requireReadableTransaction(db, user, id);
  if (row.type !== type) throw notFound('payments.notFound');
  const [a] = await db.select({ name: accounts.displayName }).from(accounts).where(eq(accounts.id, row.accountId));
  const tz = app.config.timeZone;
  const staff = canEditPayments(user) || user.roles.includes('employee');
  return formOf(
    type,
    { id: row.id, accountId: row.accountId, version: row.version, accountDisplayName: a?.name ?? '', referenceNumber: String(row.referenceNumber) },
    storedValues(type, row, tz, staff),
    {
      attachments: await attachmentsOf(db, row.id),
      canEdit: canEditPayments(user),
      confirmedByClientDate: toLocalDateTime(row.confirmedByClientDate, tz),
      approvalRequestedOn: toLocalDateTime(row.approvalRequestedOn, tz),
      objects: await accountObjects(db, row.accountId, culture, row.objectId),
    },
    t,
  );
}

// ---------- delete ----------

/** DELETE /api/transactions/{id}: the transaction and its attachments (their files after the commit). */
export async function deleteTransaction(app: FastifyInstance, caller: Caller, id: number) {
  const removed = await app.db.transaction(async (tx) => {
    await lockStatementOf(tx, id);
    const [row] = await tx.select(transactionColumns()).from(transactions).where(eq(transactions.id, id)).for('update');
    if (!row) throw notFound('payments.notFound');
    const files = await tx.delete(transactionAttachments).where(eq(transactionAttachments.transactionId, id)).returning({ systemName: transactionAttachments.systemName });
    await tx.delete(transactions).where(eq(transactions.id, id));
    await noteFilesToRemove(tx, files.map((f) => f.systemName));
    await touchPaymentAccount(tx, row.accountId);
    await logAction(tx, caller.actor, {
      action: 'Delete',
      entity: 'Transaction',
      entityId: id,
      message: `${row.type} ${row.amount}`,
      data: { accountId: row.accountId, type: row.type, amount: row.amount, transactionDate: toLocalDateTime(row.transactionDate, app.config.timeZone), categoryId: row.categoryId, attachments: files.length },
    });
    return files;
  });
  await removeNotedFiles(app, removed.map((f) => f.systemName));
}

/**
 * Merging accounts: the duplicate's transactions become the kept account's. That moves money from
 * one statement to another (and into what a payments client sees), so it is for those who write
 * payments (office admins), as a transaction's own account is.
 */
export async function moveTransactions(tx: Tx, keptId: number, duplicateId: number, caller: Caller) {
  const [has] = await tx.select({ id: transactions.id }).from(transactions).where(eq(transactions.accountId, duplicateId)).limit(1);
  if (!has) return;
  if (!canEditPayments(caller.user)) throw new AppError(403, 'accounts.mergeHasPayments');
  await lockStatements(tx, [keptId, duplicateId]);
  const moved = await tx.update(transactions).set({ accountId: keptId }).where(eq(transactions.accountId, duplicateId)).returning({ id: transactions.id });
  if (moved.length) await touchPaymentAccount(tx, keptId);
}

/**
 * Deleting an account deletes its statement: only those who write payments (office admins) may, and
 * the action log's row says how many transactions went with it. Their attachments' files are removed
 * once the delete has committed.
 */
export const deleteAccountTransactions = (app: FastifyInstance) => async (tx: Tx, accountId: number, caller: Caller) => {
  const [{ n } = { n: 0 }] = (await tx.execute(sql`select count(*)::int as n from transactions where account_id = ${accountId}`)).rows as { n: number }[];
  if (!n) return;
  if (!canEditPayments(caller.user)) throw new AppError(403, 'accounts.deleteHasPayments', { count: n });
  await lockStatements(tx, [accountId]);
  const files = (
    await tx.execute(sql`delete from transaction_attachments a using transactions t where a.transaction_id = t.id and t.account_id = ${accountId} returning a.system_name as "systemName"`)
  ).rows as { systemName: string }[];
  await tx.delete(transactions).where(eq(transactions.accountId, accountId));
  await noteFilesToRemove(tx, files.map((f) => f.systemName));
  return {
    log: { deletedTransactions: n },
    afterCommit: () => removeNotedFiles(app, files.map((f) => f.systemName)),
  };
};
