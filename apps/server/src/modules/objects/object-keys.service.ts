import type { FastifyInstance } from 'fastify';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { formatReferenceNumber, type TObjectKey, type TObjectKeyAnswer, type TObjectKeyLoan } from '@crm/contract';
import type { z } from 'zod';
import type { TObjectKeyLoanEdit, ZObjectKeyEdit, ZObjectKeyListQuery } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { accounts, objectKeyLoans, objectKeys, objects, users } from '../../db/schema/index.ts';
import { badRequest, conflict, fieldError, notFound, requireVersion } from '../../lib/errors.ts';
import { logAction } from '../../lib/audit.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { inIdOrder, idAmong } from '../../lib/paging.ts';
import { keptCount } from '../../lib/row-counts.ts';
import type { Caller } from './objects.service.ts';
import { refPrefix } from './objects.lists.ts';
import { accountIdsMatching } from '../accounts/accounts.search.ts';
import { agencyToday } from '../alerts/alerts.system.ts';
import { objectTitle } from './objects.sql.ts';

const ENTITY = 'ObjectKey';

/** A key's columns; the property's title in the reader's language (the same rule as every list and picker naming a property). */
const keyColumns = (culture: string) => ({
  id: objectKeys.id,
  objectId: objectKeys.objectId,
  ref: objects.referenceNumber,
  objectTitle: objectTitle(culture),
  accountId: objectKeys.accountId,
  account: accounts.displayName,
  received: objectKeys.received,
  givenAway: objectKeys.givenAway,
  description: objectKeys.description,
  version: objectKeys.version,
  // The newest loan: the last holder, also when the key's own holder was cleared on its return.
  lastLoan: sql<TObjectKey['lastLoan']>`(select json_build_object('accountId', l.account_id, 'account', a.display_name, 'givenAway', l.given_away, 'received', l.received)
    from object_key_loans l left join accounts a on a.id = l.account_id where l.key_id = ${objectKeys.id} order by l.id desc limit 1)`,
});

function keysQuery(db: Db | Tx, where: SQL | undefined, culture: string) {
  return db
    .select(keyColumns(culture))
    .from(objectKeys)
    .innerJoin(objects, eq(objects.id, objectKeys.objectId))
    .leftJoin(accounts, eq(accounts.id, objectKeys.accountId))
    .where(where);
}

type KeyRow = Awaited<ReturnType<typeof keysQuery>>[number];
const toKey = ({ ref, ...r }: KeyRow): TObjectKey => ({ ...r, objectReferenceNumber: formatReferenceNumber(ref) });

/**
 * The keys lent to the accounts whose names, phones or e-mails have the typed text, in any script,
 * Greeklish too (`accountIdsMatching`; a key's current holder is its newest loan's, since 0037
 * started the history and every save keeps it): the most recently lent to one of them first, each
 * with that newest loan to one of them (`loans`, in the same order). One statement: the matched
 * accounts, an array made at run time, are looked up in the loans' index by holder (holder, key,
 * loan) alone, in one walk of it in holder order (a probe per matched account read 30 times the
 * pages: «Παπαδ», 2,939 accounts, 5,938 buffers against 181). The keys are a few thousand at most (an agent's
 * name), so the page is cut from them here and the count is theirs, and the list's statement takes
 * the page's ids and their loans (decision 023: a name test inside the list's own query scans and
 * hashes every row; decision 113: the loans instead of the holders' ids, thousands of them).
 */
async function heldBy(db: Db | Tx, text: string): Promise<{ keys: number[]; loans: number[] }> {
  const { rows } = await db.execute<{ keys: string; loans: string }>(sql`
    select coalesce(array_agg(k.key_id order by k.last desc), '{}')::text as keys, coalesce(array_agg(k.last order by k.last desc), '{}')::text as loans
    from (select l.key_id, max(l.id) as last from object_key_loans l where l.account_id = any(array(${accountIdsMatching(text)}))
      group by l.key_id) k`);
  const list = (literal: string | undefined) => (literal && literal.length > 2 ? literal.slice(1, -1).split(',').map(Number) : []);
  return { keys: list(rows[0]?.keys), loans: list(rows[0]?.loans) };
}

/**
 * GET /api/ObjectKeys: by reference-number prefix (or one object, by its id), by object then newest first; or by anyone who
 * held the key, now or before (`holder`): the keys most recently lent to them first, so the list
 * reads as their lending history, each with `heldBy`, its newest loan to one of them.
 */
export async function listKeys(app: FastifyInstance, q: z.output<typeof ZObjectKeyListQuery>, culture: string) {
  const typed = q.referenceNumber.trim().replace(/^#/, '');
  if (typed && !/^\d{1,10}$/.test(typed)) return { items: [], totalRows: 0 };
  const holder = q.holder.trim();
  const offset = (q.currentPage - 1) * q.perPage;
  if (!holder) {
    // One statement: the page's ids first, an array made at run time (the number's index and the
    // keys, no per-row look-ups: with OFFSET on the rows themselves, page 50 read 1,000 keys' newest
    // loans to show 20), then those keys with their holders and loans in the same order, and the
    // total beside each row: kept by the database for all the keys (row_counts, decision 121),
    // counted for a number's prefix or a property (every key has its object: a foreign key).
    const where = q.objectId != null ? eq(objectKeys.objectId, q.objectId) : typed ? refPrefix(typed) : undefined;
    const order = [objects.referenceNumber, sql`${objectKeys.received} desc nulls last`, objectKeys.id] as const;
    const pageIds = app.db.select({ id: objectKeys.id }).from(objectKeys).innerJoin(objects, eq(objects.id, objectKeys.objectId)).where(where).orderBy(...order).limit(q.perPage).offset(offset);
    const counted = () => app.db.select({ n: sql<number>`count(*)::int` }).from(objectKeys).innerJoin(objects, eq(objects.id, objectKeys.objectId)).where(where);
    const total = typed || q.objectId != null ? sql<number>`(${counted()})` : sql<number>`(select n::int from row_counts where name = 'object_keys')`;
    const rows = await app.db
      .select({ ...keyColumns(culture), total })
      .from(objectKeys)
      .innerJoin(objects, eq(objects.id, objectKeys.objectId))
      .leftJoin(accounts, eq(accounts.id, objectKeys.accountId))
      .where(sql`${objectKeys.id} = any(array(${pageIds}))`)
      .orderBy(...order);
    // Past the last page no row carries the total: read apart.
    const totalRows = rows.length
      ? Number(rows[0]!.total)
      : typed || q.objectId != null
        ? ((await counted())[0]?.n ?? 0)
        : await keptCount(app.db, 'object_keys');
    return { items: rows.map(({ total: _, ...r }) => toKey(r)), totalRows };
  }
  const lent = await heldBy(app.db, holder);
  const held = { loanOf: new Map(lent.keys.map((id, i) => [id, lent.loans[i]!])) };
  let found = lent.keys;
  if (typed && found.length) {
    const literal = `{${found.join(',')}}`;
    const inPrefix = await app.db
      .select({ id: objectKeys.id })
      .from(objectKeys)
      .innerJoin(objects, eq(objects.id, objectKeys.objectId))
      .where(and(refPrefix(typed), sql`${objectKeys.id} = any(${literal}::int[])`));
    const ids = new Set(inPrefix.map((r) => r.id));
    found = found.filter((id) => ids.has(id));
  }
  const totalRows = found.length;
  const pageIds = found.slice(offset, offset + q.perPage);
  // Each key's newest loan to one of the accounts found: the loan heldBy found it by.
  const pageLoans = pageIds.map((id) => held.loanOf.get(id)!);
  const heldByLoan = sql<TObjectKey['heldBy']>`(select json_build_object('accountId', l.account_id, 'account', a.display_name, 'givenAway', l.given_away, 'received', l.received)
        from object_key_loans l left join accounts a on a.id = l.account_id
        where l.id = any(${`{${pageLoans.join(',')}}`}::int[]) and l.key_id = ${objectKeys.id})`;
  const rows = pageIds.length
    ? await app.db
        .select({ ...keyColumns(culture), heldBy: heldByLoan })
        .from(objectKeys)
        .innerJoin(objects, eq(objects.id, objectKeys.objectId))
        .leftJoin(accounts, eq(accounts.id, objectKeys.accountId))
        .where(idAmong(objectKeys.id, pageIds))
    : [];
  return {
    items: inIdOrder(pageIds, rows, (r) => r.id).map(({ heldBy: by, ...r }) => ({ ...toKey(r), heldBy: by })),
    totalRows,
  };
}

/** The most loans a key's answer lists (years of daily loans); the rest stay stored. */
const HISTORY_SHOWN = 500;

/** A key's loans, newest first, with the holder's and the recorder's names. */
async function keyHistory(db: Db | Tx, keyId: number, timeZone: string): Promise<TObjectKeyLoan[]> {
  const rows = await db
    .select({
      id: objectKeyLoans.id,
      accountId: objectKeyLoans.accountId,
      account: accounts.displayName,
      givenAway: objectKeyLoans.givenAway,
      received: objectKeyLoans.received,
      recordedOn: objectKeyLoans.recordedOn,
      recordedBy: sql<string | null>`(select coalesce(ra.display_name, u.username) from ${users} u left join accounts ra on ra.id = u.account_id where u.id = ${objectKeyLoans.recordedBy})`,
      version: objectKeyLoans.version,
    })
    .from(objectKeyLoans)
    .leftJoin(accounts, eq(accounts.id, objectKeyLoans.accountId))
    .where(eq(objectKeyLoans.keyId, keyId))
    .orderBy(desc(objectKeyLoans.id))
    .limit(HISTORY_SHOWN);
  return rows.map((r) => ({ ...r, recordedOn: toLocalDateTime(r.recordedOn, timeZone)! }));
}

/** GET /api/ObjectKeys/edit/{id}: the key with its lending history. */
export async function getKey(app: FastifyInstance, db: Db | Tx, id: number, culture: string): Promise<TObjectKeyAnswer> {
  const [row] = await keysQuery(db, eq(objectKeys.id, id), culture);
  if (!row) throw notFound('objectKeys.notFound');
  return { ...toKey(row), history: await keyHistory(db, id, app.config.timeZone) };
}

type KeyState = { accountId: number | null; givenAway: string | null; received: string | null };
type Loan = KeyState;

/**
 * The loan a key's state describes: a holder or a given-away date makes one. Its received-back date
 * is the key's received date when that is not before the given-away date (an earlier one is the day
 * the agency got the key, before lending it). Without holder and given-away date there is no loan.
 */
export function loanOf(s: KeyState): Loan | null {
  if (s.accountId == null && s.givenAway == null) return null;
  return { accountId: s.accountId, givenAway: s.givenAway, received: backOn(s.givenAway, s.received) };
}
const backOn = (givenAway: string | null, received: string | null) => (received != null && (givenAway == null || received >= givenAway) ? received : null);

/**
 * Whether a key's state goes on with a loan: its holder and given-away date are the loan's, or
 * cleared (a holder reset on the key's return, a given-away date reset because it equals the
 * received one, as the form's warning asks, do not make another loan).
 */
export const continuesLoan = (loan: Loan, s: KeyState) => (s.accountId == null || s.accountId === loan.accountId) && (s.givenAway == null || s.givenAway === loan.givenAway);

/**
 * Keeps the key's lending history with a change of its holder or dates (decision 014), in the
 * save's transaction, after the version check:
 * - the state before, when no loan holds it yet (a key from before the history, or one written
 *   by the demo data), is kept first, as recorded by whoever saved it last;
 * - a state that goes on with the newest loan updates that loan (its return, mostly);
 * - any other holder or given-away date, or Lend again (`newLoan`), adds a loan;
 * - a key left without holder and given-away date changes no loan: it is in the office.
 */
async function recordLoan(tx: Tx, keyId: number, before: KeyState & { modifiedOn: Date; modifiedBy: number | null }, after: KeyState, newLoan: boolean, userId: number) {
  const [newest] = await tx.select().from(objectKeyLoans).where(eq(objectKeyLoans.keyId, keyId)).orderBy(desc(objectKeyLoans.id)).limit(1);
  let last: Loan | undefined = newest;
  let lastId = newest?.id;
  const previous = loanOf(before);
  if (previous && !(last && continuesLoan(last, before))) {
    const [kept] = await tx
      .insert(objectKeyLoans)
      .values({ keyId, ...previous, recordedOn: before.modifiedOn, recordedBy: before.modifiedBy })
      .returning({ id: objectKeyLoans.id });
    last = previous;
    lastId = kept!.id;
  }
  const next = loanOf(after);
  if (!next) return;
  if (last && lastId !== undefined && !newLoan && continuesLoan(last, after)) {
    const givenAway = after.givenAway ?? last.givenAway;
    const merged = {
      accountId: after.accountId ?? last.accountId,
      givenAway,
      // A return date cleared while the loan keeps its given-away date: the key is out again.
      received: after.received != null ? backOn(givenAway, after.received) : after.givenAway != null ? null : last.received,
    };
    if (merged.accountId === last.accountId && merged.givenAway === last.givenAway && merged.received === last.received) return;
    await tx
      .update(objectKeyLoans)
      .set({ ...merged, recordedOn: new Date(), recordedBy: userId, version: sql`${objectKeyLoans.version} + 1` })
      .where(eq(objectKeyLoans.id, lastId));
    return;
  }
  await tx.insert(objectKeyLoans).values({ keyId, ...next, recordedBy: userId });
}

async function checkRefs(tx: Tx, body: z.output<typeof ZObjectKeyEdit>) {
  const [o] = await tx.select({ id: objects.id }).from(objects).where(eq(objects.id, body.objectId));
  if (!o) throw fieldError('objectId', 'objectKeys.objectNotFound');
  if (body.accountId) {
    const [a] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, body.accountId));
    if (!a) throw fieldError('accountId', 'objectKeys.accountNotFound');
  }
}

/**
 * POST /api/ObjectKeys/edit: a new key (no id) or a change of one (id and the version it was read
 * at); a change of its holder or dates is kept in its lending history in the same transaction.
 */
export async function saveKey(app: FastifyInstance, caller: Caller, body: z.output<typeof ZObjectKeyEdit>, culture: string): Promise<TObjectKeyAnswer> {
  return app.db.transaction(async (tx) => {
    const values = {
      objectId: body.objectId,
      accountId: body.accountId ?? null,
      received: body.received ?? null,
      givenAway: body.givenAway ?? null,
      description: body.description?.trim() ? body.description.trim() : null,
    };
    // A key record says something: who holds it, since when, or what it is.
    const empty = () => {
      if (values.accountId === null && values.received === null && values.givenAway === null && values.description === null) throw fieldError('accountId', 'objectKeys.empty');
    };
    // What happened, not what is planned: a date typed after today is refused, as the lending
    // history's editor refuses it (a date already stored is not judged again).
    const notAfterToday = (before: { givenAway: string | null; received: string | null } | null) => {
      const today = agencyToday(app.config.timeZone);
      if (values.givenAway != null && values.givenAway !== before?.givenAway && values.givenAway > today) throw fieldError('givenAway', 'objectKeys.loanGivenFuture');
      if (values.received != null && values.received !== before?.received && values.received > today) throw fieldError('received', 'objectKeys.receivedFuture');
    };
    if (!body.id) {
      await checkRefs(tx, body);
      empty();
      notAfterToday(null);
      const [row] = await tx
        .insert(objectKeys)
        .values({ ...values, createdBy: caller.user.id, modifiedBy: caller.user.id })
        .returning({ id: objectKeys.id });
      const loan = loanOf(values);
      if (loan) await tx.insert(objectKeyLoans).values({ keyId: row!.id, ...loan, recordedBy: caller.user.id });
      await logAction(tx, caller.actor, { action: 'Create', entity: ENTITY, entityId: row!.id, data: values });
      return getKey(app, tx, row!.id, culture);
    }
    const [current] = await tx.select().from(objectKeys).where(eq(objectKeys.id, body.id)).for('update');
    if (!current) throw notFound('objectKeys.notFound');
    if (requireVersion(body.version) !== current.version) throw conflict(await getKey(app, tx, body.id, culture));
    await checkRefs(tx, body);
    empty();
    notAfterToday(current);
    const changes: Record<string, unknown> = Object.fromEntries(Object.entries(values).filter(([k, v]) => (current as Record<string, unknown>)[k] !== v));
    if (!Object.keys(changes).length) return getKey(app, tx, body.id, culture);
    await tx
      .update(objectKeys)
      .set({ ...values, version: current.version + 1, modifiedOn: new Date(), modifiedBy: caller.user.id })
      .where(and(eq(objectKeys.id, body.id)));
    if ('accountId' in changes || 'givenAway' in changes || 'received' in changes) {
      await recordLoan(tx, body.id, current, values, body.newLoan === true, caller.user.id);
      if (body.newLoan) changes.newLoan = true;
    }
    await logAction(tx, caller.actor, { action: 'Update', entity: ENTITY, entityId: body.id, data: changes });
    return getKey(app, tx, body.id, culture);
  });
}

export async function deleteKey(app: FastifyInstance, caller: Caller, id: number) {
  if (id < 1) throw badRequest('validation.invalid');
  await app.db.transaction(async (tx) => {
    const [gone] = await tx.delete(objectKeys).where(eq(objectKeys.id, id)).returning();
    if (!gone) throw notFound('objectKeys.notFound');
    await logAction(tx, caller.actor, { action: 'Delete', entity: ENTITY, entityId: id, data: { objectId: gone.objectId, accountId: gone.accountId } });
  });
}

type LoanRow = typeof objectKeyLoans.$inferSelect;
type FieldChanges = Record<string, { from: unknown; to: unknown }>;
const LOAN_FIELDS = ['accountId', 'givenAway', 'received'] as const;
/** The fields that differ, each as its old and new value (the action log shows them "from → to"). */
function changesOf(before: KeyState, after: KeyState, prefix = ''): FieldChanges {
  const out: FieldChanges = {};
  for (const f of LOAN_FIELDS) if (before[f] !== after[f]) out[prefix ? `${prefix}${f[0]!.toUpperCase()}${f.slice(1)}` : f] = { from: before[f], to: after[f] };
  return out;
}

/**
 * The key's holder and dates after its newest loan was corrected from `loan` to `next`, as the key
 * form would have recorded that loan: its holder and given-away date, and its return as the key's
 * received date. Two ways the form records a return are kept: a holder cleared on the return stays
 * cleared while the loan is back, and a key back the day it went out keeps its given-away date
 * cleared (the spec's warning). While the loan is out, the key's received date stays only when it
 * is the day the agency got the key, before lending it.
 */
export function keyAfterLoan(key: KeyState, loan: Loan, next: Loan): KeyState {
  const back = next.received != null;
  return {
    accountId: back && loan.received != null && key.accountId == null && loan.accountId != null ? null : next.accountId,
    givenAway: back && key.givenAway == null && loan.givenAway != null && next.givenAway === next.received ? null : next.givenAway,
    received: back ? next.received : key.received != null && next.givenAway != null && key.received < next.givenAway ? key.received : null,
  };
}

/** The key's holder and dates when its newest loan is deleted: the loan before it, or none (in the office). */
export function keyAfterDeletedLoan(key: KeyState, previous: Loan | undefined): KeyState {
  if (!previous) return { accountId: null, givenAway: null, received: key.received };
  return {
    accountId: previous.accountId,
    givenAway: previous.received != null && previous.received === previous.givenAway ? null : previous.givenAway,
    received: previous.received ?? (key.received != null && previous.givenAway != null && key.received < previous.givenAway ? key.received : null),
  };
}

/**
 * The loan, its key locked first (the order the key's save takes, so the two never wait on each
 * other), and the loan checked against the version it was read at: a stale change is answered 409
 * with the key as it is now.
 */
async function lockLoan(app: FastifyInstance, tx: Tx, id: number, version: number | null | undefined, culture: string) {
  const [found] = await tx.select({ keyId: objectKeyLoans.keyId }).from(objectKeyLoans).where(eq(objectKeyLoans.id, id));
  if (!found) throw notFound('objectKeys.loanNotFound');
  const [key] = await tx.select().from(objectKeys).where(eq(objectKeys.id, found.keyId)).for('update');
  const [loan] = key ? await tx.select().from(objectKeyLoans).where(eq(objectKeyLoans.id, id)).for('update') : [];
  if (!key || !loan) throw notFound('objectKeys.loanNotFound');
  if (loan.version !== requireVersion(version)) throw conflict(await getKey(app, tx, key.id, culture));
  const [newest] = await tx.select({ id: objectKeyLoans.id }).from(objectKeyLoans).where(eq(objectKeyLoans.keyId, key.id)).orderBy(desc(objectKeyLoans.id)).limit(1);
  return { key, loan, isNewest: newest?.id === loan.id };
}

/** The key takes the state its history now gives it (a new version), when that differs. */
async function followHistory(tx: Tx, caller: Caller, key: typeof objectKeys.$inferSelect, next: KeyState): Promise<FieldChanges> {
  const changes = changesOf(key, next, 'key');
  if (!Object.keys(changes).length) return changes;
  await tx
    .update(objectKeys)
    .set({ ...next, version: key.version + 1, modifiedOn: new Date(), modifiedBy: caller.user.id })
    .where(eq(objectKeys.id, key.id));
  return changes;
}

/**
 * POST /api/ObjectKeys/loan: one loan of the history corrected (a holder or a date typed wrong).
 * Refused with a field's reason: a loan with neither holder nor given-away date, an unknown holder,
 * a return before the loan, a return or a loan after today (the history records what happened; a
 * date already stored is not judged again). The newest loan is the key's current one: the key
 * follows it (`keyAfterLoan`) in the same transaction, with a new version. One action-log entry
 * on the key says what the loan was and is, and what the key became.
 */
export async function updateLoan(app: FastifyInstance, caller: Caller, body: TObjectKeyLoanEdit, culture: string): Promise<TObjectKeyAnswer> {
  return app.db.transaction(async (tx) => {
    const { key, loan, isNewest } = await lockLoan(app, tx, body.id, body.version, culture);
    const next: Loan = { accountId: body.accountId, givenAway: body.givenAway, received: body.received };
    if (next.accountId == null && next.givenAway == null) throw fieldError('accountId', 'objectKeys.loanEmpty');
    if (next.accountId != null && next.accountId !== loan.accountId) {
      const [a] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, next.accountId));
      if (!a) throw fieldError('accountId', 'objectKeys.accountNotFound');
    }
    const today = agencyToday(app.config.timeZone);
    if (next.givenAway != null && next.givenAway !== loan.givenAway && next.givenAway > today) throw fieldError('givenAway', 'objectKeys.loanGivenFuture');
    if (next.received != null && next.received !== loan.received && next.received > today) throw fieldError('received', 'objectKeys.loanBackFuture');
    if (next.received != null && next.givenAway != null && next.received < next.givenAway) throw fieldError('received', 'objectKeys.loanBackBeforeGiven');
    const loanChanges = changesOf(loan, next);
    if (!Object.keys(loanChanges).length) return getKey(app, tx, key.id, culture);
    await tx
      .update(objectKeyLoans)
      .set({ ...next, version: loan.version + 1, recordedOn: new Date(), recordedBy: caller.user.id })
      .where(eq(objectKeyLoans.id, loan.id));
    const keyChanges = isNewest ? await followHistory(tx, caller, key, keyAfterLoan(key, loan, next)) : {};
    await logAction(tx, caller.actor, { action: 'UpdateLoan', entity: ENTITY, entityId: key.id, data: { loanId: loan.id, ...loanChanges, ...keyChanges } });
    return getKey(app, tx, key.id, culture);
  });
}

/**
 * DELETE /api/ObjectKeys/loan/{id}?version=: a loan recorded by mistake (Lend again pressed for
 * nothing, a key given to the wrong property's holder). The newest one gone, the key takes the
 * loan before it as its current one, or none: in the office (`keyAfterDeletedLoan`). Logged on the
 * key with the loan as it was.
 */
export async function deleteLoan(app: FastifyInstance, caller: Caller, id: number, version: number | undefined, culture: string): Promise<TObjectKeyAnswer> {
  return app.db.transaction(async (tx) => {
    const { key, loan, isNewest } = await lockLoan(app, tx, id, version, culture);
    await tx.delete(objectKeyLoans).where(eq(objectKeyLoans.id, loan.id));
    let keyChanges: FieldChanges = {};
    if (isNewest) {
      const [previous] = await tx.select().from(objectKeyLoans).where(eq(objectKeyLoans.keyId, key.id)).orderBy(desc(objectKeyLoans.id)).limit(1);
      keyChanges = await followHistory(tx, caller, key, keyAfterDeletedLoan(key, previous as LoanRow | undefined));
    }
    await logAction(tx, caller.actor, {
      action: 'DeleteLoan',
      entity: ENTITY,
      entityId: key.id,
      data: { loanId: loan.id, accountId: loan.accountId, givenAway: loan.givenAway, received: loan.received, ...keyChanges },
    });
    return getKey(app, tx, key.id, culture);
  });
}
