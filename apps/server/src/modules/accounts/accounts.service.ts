import type { FastifyInstance } from 'fastify';
import { and, eq, inArray, isNull, ne, notInArray, sql } from 'drizzle-orm';
import {
  EMPLOYEE_ROLES,
  isAccountLanguage,
  LinkKind,
  MAX_EMAILS,
  MAX_PHONES,
  ROLES,
  type TAccount,
  type TAccountAdd,
  type TAccountUpdate,
  type TCulture,
  type TRole,
  type TSelectOption,
  LEAD_CLOSED_STAGES,
} from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { buildOnce } from '../../db/prepared.ts';
import { accounts, activities, activityLinks, assignments, branches, files, sessions, users } from '../../db/schema/index.ts';
import { accessDenied, badRequest, conflict, fieldError, notFound, orderError, type AppError, requireVersion } from '../../lib/errors.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import {
  containsPattern,
  createdByName,
  joinStampNames,
  modifiedByName,
  objectRefsOf,
  OWNED_RELATIONS,
  RENTED_RELATIONS,
} from './accounts.sql.ts';
import { deleteActivityLinks } from '../activities/activity-orphans.ts';
import { linkMailToNewAddresses } from '../mail/mail-accounts.ts';
import type { Caller } from '../../plugins/auth.ts';

/** Assignment parent kind of an account (assignments.parent). */
export const ASSIGNMENT_PARENT_ACCOUNT = 1;
/** Services a client asks for (accounts.service). */
export const SERVICES = [1, 2, 3, 4, 5] as const;

/**
 * Other modules keep records that point at accounts (objects' owners, leads, transactions...).
 * They add a step here so that merging two accounts moves their references too, and deleting an
 * account cleans up (or refuses with an AppError). Steps run inside the merge/delete transaction.
 */
export type AccountMergeStep = (tx: Tx, keptId: number, duplicateId: number, caller: Caller) => Promise<void>;
/** What a delete step did: more for the action log's row, and work once the delete has committed (files). */
export type AccountDeleteStep = (tx: Tx, id: number, caller: Caller) => Promise<{ log?: Record<string, unknown>; afterCommit?: () => Promise<void> } | void>;

/** The account's leads as its page lists them (id and a one-line description), from the leads module. */
export type AccountLeadsReader = (db: Db | Tx, accountId: number, culture: TCulture) => Promise<{ id: number; descr: string }[]>;
/** The account's bought and rented objects from its closed deals (reference numbers, space-separated), from the deals module. */
export type AccountDealRefsReader = (db: Db | Tx, accountId: number) => Promise<{ bought: string; rented: string }>;

declare module 'fastify' {
  interface FastifyInstance {
    accountMergeSteps: AccountMergeStep[];
    accountDeleteSteps: AccountDeleteStep[];
    accountLeads?: AccountLeadsReader;
    accountDealRefs?: AccountDealRefsReader;
  }
}

type AccountRow = typeof accounts.$inferSelect;
type AccountSet = Partial<typeof accounts.$inferInsert>;

const isAdmin = (u: SessionUser) => u.roles.includes('admin');
/** Roles and branches are the office admins' business: not employees', nor a branch's. */
const canManageRoles = (u: SessionUser) => isAdmin(u) && u.branchId === null;

/** "a; b ;;c" -> ['a', 'b', 'c'] */
export const splitList = (value: string | null | undefined) =>
  (value ?? '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
const joinList = (list: string[]) => (list.length ? list.join(';') : null);

export function roleOptions(t: (key: string) => string): TSelectOption[] {
  return EMPLOYEE_ROLES.map((r) => ({ value: r, text: t(`accounts.role.${r}`) }));
}
export function serviceOptions(t: (key: string) => string, withAll: boolean): TSelectOption[] {
  return [...(withAll ? [0] : []), ...SERVICES].map((v) => ({ value: v, text: t(`accounts.service.${v}`) }));
}
export async function branchOptions(db: Db | Tx, t: (key: string) => string): Promise<TSelectOption[]> {
  const rows = await db.select().from(branches).orderBy(branches.id);
  return rows.map((b) => ({ value: b.id, text: t(b.nameKey) }));
}
export async function sourceOptions(db: Db | Tx): Promise<TSelectOption[]> {
  const rows = await db
    .select({ value: accounts.id, text: accounts.displayName })
    .from(accounts)
    .where(eq(accounts.isSource, true))
    // In alphabetical order (an ICU collation), not by code points.
    .orderBy(sql`${accounts.displayName} collate "und-x-icu"`, accounts.id);
  return rows;
}

/** The purchase budget of a client's newest lead that is not closed (won or lost) and has one, as the Clients list reads it. */
async function openLeadBudget(db: Db | Tx, accountId: number): Promise<{ leadId: number; min: number | null; max: number | null } | null> {
  const res = await db.execute(sql`select id, purchase_budget_range_min as min, purchase_budget_range_max as max from leads
    where account_id = ${accountId} and coalesce(stage, 0) <> all(${sql.param([...LEAD_CLOSED_STAGES])}::int[])
      and (purchase_budget_range_min is not null or purchase_budget_range_max is not null)
    order by created_on desc limit 1`);
  const r = res.rows[0] as { id: number; min: string | number | null; max: string | number | null } | undefined;
  return r ? { leadId: Number(r.id), min: r.min == null ? null : Number(r.min), max: r.max == null ? null : Number(r.max) } : null;
}

/** The account as the view and edit screens show it; undefined when there is none. */
export async function getAccountDto(app: FastifyInstance, db: Db | Tx, id: number, culture: TCulture = 'en'): Promise<TAccount | undefined> {
  // Built once (a select of every account column costs more to build than to run).
  const query = buildOnce(db, 'account_load', (name) =>
    joinStampNames(
      db
        .select({
          a: accounts,
          createdBy: createdByName,
          modifiedBy: modifiedByName,
          signIn: sql<string | null>`(select u.email from users u where u.account_id = ${accounts.id} and not u.disabled order by u.id limit 1)`,
          owned: objectRefsOf(accounts.id, OWNED_RELATIONS),
          rented: objectRefsOf(accounts.id, RENTED_RELATIONS),
          files: sql<{ systemName: string; userName: string }[]>`coalesce((
          select json_agg(json_build_object('systemName', f.system_name, 'userName', f.user_name) order by f.sort_order, f.id)
          from files f where f.parent_type = ${LinkKind.Account} and f.parent_id = ${accounts.id}), '[]'::json)`,
        })
        .from(accounts)
        .$dynamic(),
      accounts.createdBy,
      accounts.modifiedBy,
    )
      .where(eq(accounts.id, sql.placeholder('id')))
      .limit(1)
      .prepare(name),
  );
  const [row] = await query.execute({ id });
  if (!row) return undefined;
  const { a } = row;
  const tz = app.config.timeZone;
  const dealRefs = app.accountDealRefs ? await app.accountDealRefs(db, id) : { bought: '', rented: '' };
  const { emails, phones, createdOn, modifiedOn, isClientDate, isOwnerDate, erasedOn, searchText: _s, createdBy: _c, modifiedBy: _m, ...fields } = a;
  return {
    ...fields,
    email: joinList(emails),
    phone: joinList(phones),
    isClientDate: toLocalDateTime(isClientDate, tz),
    isOwnerDate: toLocalDateTime(isOwnerDate, tz),
    erasedOn: toLocalDateTime(erasedOn, tz),
    files: row.files,
    ownedObjectsReferenceNumbers: row.owned,
    // Purchases are closed sales; rentals are tenancies of the object and closed rentals.
    boughtObjectsReferenceNumbers: dealRefs.bought,
    rentedObjectsReferenceNumbers: [...new Set(`${row.rented} ${dealRefs.rented}`.split(' ').filter(Boolean))].sort().join(' '),
    leads: app.accountLeads ? await app.accountLeads(db, id, culture) : [],
    leadBudget: a.isClient && a.purchaseBudgetRangeMin == null && a.purchaseBudgetRangeMax == null ? await openLeadBudget(db, id) : null,
    signIn: row.signIn,
    createdOn: toLocalDateTime(createdOn, tz)!,
    createdBy: row.createdBy,
    modifiedOn: toLocalDateTime(modifiedOn, tz)!,
    modifiedBy: row.modifiedBy,
  };
}

/**
 * What a branch user reads of an employee's account: not the role, branch, work period or
 * sign-in (the Employes screen is not theirs), nor its e-mails, where the sign-in address is (as
 * global search gives them no employee's e-mail either).
 */
export function accountForCaller<T extends TAccount>(user: SessionUser, dto: T): T {
  if (user.branchId === null || !dto.isEmploye) return dto;
  return { ...dto, role: null, branchId: null, startDate: null, endDate: null, signIn: null, email: null };
}

export async function requireAccountDto(app: FastifyInstance, db: Db | Tx, id: number, culture: TCulture = 'en'): Promise<TAccount> {
  const dto = await getAccountDto(app, db, id, culture);
  if (!dto) throw notFound();
  return dto;
}

/**
 * Checks a change of the account's fields and turns it into column values. Throws a 400 (field
 * error) for bad values and a 403 when a non-admin changes a role or a branch. `current` is the
 * stored row (undefined for a new account).
 */
async function prepareChanges(
  tx: Tx,
  caller: Caller,
  patch: Partial<TAccountUpdate>,
  current: AccountRow | undefined,
  /** Accounts that are the same person as this one (a merge's duplicate): their sign-in and e-mails are its own. */
  samePerson: number[] = [],
): Promise<{ set: AccountSet; changes: Record<string, unknown> }> {
  const { email, phone, id: _id, version: _version, filesNew: _files, ...fields } = patch;
  const set: AccountSet = {};
  const changes: Record<string, unknown> = {};
  // A branch user reads no work period of an employee (accountForCaller): sent back empty, as read,
  // it changes nothing; any other value is refused, as the single-field edit refuses it.
  const hiddenPeriod = caller.user.branchId !== null && current?.isEmploye === true;
  for (const [k, raw] of Object.entries(fields)) {
    if (raw === undefined) continue;
    if (hiddenPeriod && (k === 'startDate' || k === 'endDate')) {
      if (raw === null || raw === '') continue;
      throw accessDenied();
    }
    // An emptied text is no value (the merge screen and the names rely on it).
    const v = typeof raw === 'string' && !raw.trim() ? null : raw;
    if ((k === 'firstName' || k === 'lastName') && v === null) throw fieldError(k, 'validation.required');
    const prev = current ? (current as Record<string, unknown>)[k] : undefined;
    if (current && prev === v) continue;
    (set as Record<string, unknown>)[k] = v;
    changes[k] = v;
  }
  // The e-mails and phones: a list written as one text, stored as an array, each list with its own limit.
  const lists = [
    { field: 'email', column: 'emails', text: email, max: MAX_EMAILS, tooMany: 'accounts.tooManyEmails' },
    { field: 'phone', column: 'phones', text: phone, max: MAX_PHONES, tooMany: 'accounts.tooManyPhones' },
  ] as const;
  for (const l of lists) {
    if (l.text === undefined) continue;
    const list = splitList(l.text);
    if (list.length > l.max) throw fieldError(l.field, l.tooMany, { max: l.max });
    if (!current || current[l.column].join(';') !== list.join(';')) {
      set[l.column] = list;
      changes[l.field] = joinList(list);
    }
  }
  const roleChanged = 'role' in set && (set.role ?? null) !== (current?.role ?? null);
  const branchChanged = 'branchId' in set && (set.branchId ?? null) !== (current?.branchId ?? null);
  if ((roleChanged || branchChanged) && !canManageRoles(caller.user)) throw accessDenied();
  // What a change can grant is the office admins' alone: the employee flag, and the e-mails of an
  // employee's account (a password set for one of them becomes that employee's sign-in).
  if (!canManageRoles(caller.user)) {
    const flagChanged = 'isEmploye' in set && Boolean(set.isEmploye) !== Boolean(current?.isEmploye);
    const employeeAccount = current ? current.isEmploye || (await hasSignIn(tx, current.id)) : false;
    if (flagChanged || ('emails' in set && employeeAccount)) throw accessDenied();
  }
  // A branch does not see payments: it neither opens nor closes an account's transactions, nor
  // changes where a payments account's mail goes (its invitation, its expense approval links).
  if (caller.user.branchId !== null && 'hasTransactions' in set && Boolean(set.hasTransactions) !== Boolean(current?.hasTransactions)) throw accessDenied();
  if (caller.user.branchId !== null && 'emails' in set && current?.hasTransactions) throw accessDenied();
  // An employee's e-mails are its ways in (Set password and the invitation make a sign-in for any of
  // them): one that is already somebody else's would hand that person's sign-in over.
  if ('isEmploye' in set ? set.isEmploye : current?.isEmploye) {
    const before = current?.isEmploye ? current.emails.map((e) => e.toLowerCase()) : [];
    const gained = (set.emails ?? current?.emails ?? []).filter((e) => !before.includes(e.toLowerCase()));
    if (gained.length) await refuseOthersEmails(tx, gained, [...(current ? [current.id] : []), ...samePerson]);
  }
  if (roleChanged && set.role !== null && !(EMPLOYEE_ROLES as readonly string[]).includes(set.role!)) {
    throw fieldError('role', 'validation.choice');
  }
  if (branchChanged && set.branchId !== null) {
    const [b] = await tx.select({ id: branches.id }).from(branches).where(eq(branches.id, set.branchId!));
    if (!b) throw fieldError('branchId', 'validation.choice');
  }
  if ('service' in set && set.service !== null && !(SERVICES as readonly number[]).includes(set.service!)) {
    throw fieldError('service', 'validation.choice');
  }
  if ('sourceId' in set && set.sourceId !== null) {
    if (current && set.sourceId === current.id) throw fieldError('sourceId', 'validation.choice');
    const [s] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, set.sourceId!));
    if (!s) throw fieldError('sourceId', 'validation.choice');
  }
  // Ranges stay in order (from ≤ up to), judged on the values the account will have.
  const ordered = (low: 'purchaseBudgetRangeMin' | 'startDate', high: 'purchaseBudgetRangeMax' | 'endDate', error: (field: string, onHigh: boolean) => AppError) => {
    const lo = low in set ? set[low] : current?.[low];
    const hi = high in set ? set[high] : current?.[high];
    if (lo != null && hi != null && lo > hi) throw error(high in set ? high : low, high in set);
  };
  // The budget's message is the lead's, in the terms of the field it is under.
  ordered('purchaseBudgetRangeMin', 'purchaseBudgetRangeMax', (field, onHigh) => orderError('budget', field, onHigh));
  ordered('startDate', 'endDate', (field) => fieldError(field, 'accounts.dateOrder'));
  // Becoming a client or an owner is dated once.
  const now = new Date();
  if (set.isClient === true && !current?.isClientDate) set.isClientDate = now;
  if (set.isOwner === true && !current?.isOwnerDate) set.isOwnerDate = now;
  return { set, changes };
}

/**
 * Refuses (a field error on the e-mails) an e-mail that somebody else signs in with (a sign-in that
 * is not one of `own`'s, the first administrator's too), or that another employee account has (a
 * sign-in in waiting: Set password could not tell whose it is). Ended sign-ins do not count: one
 * comes back for the employee account that has its e-mail.
 */
async function refuseOthersEmails(tx: Tx, emails: string[], own: number[]) {
  const wanted = [...new Set(emails.map((e) => e.trim().toLowerCase()))].sort();
  // Two saves giving two employees one new address at the same moment: the second waits for the
  // first to commit and then finds it (locks taken in one order, so two saves never wait on each other).
  for (const e of wanted) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`account-email:${e}`}))`);
  const ownIds = sql`array[${sql.join([0, ...own].map((id) => sql`${id}`), sql`, `)}]::int[]`;
  const wantedList = sql`array[${sql.join(wanted.map((e) => sql`${e}`), sql`, `)}]::text[]`;
  const [signIn] = (
    await tx.execute(sql`
      select u.email, coalesce(nullif(a.display_name, ''), u.username) as name
      from users u left join accounts a on a.id = u.account_id
      where not u.disabled and lower(u.email) = any(${wantedList}) and (u.account_id is null or u.account_id <> all(${ownIds}))
      order by u.id limit 1`)
  ).rows as { email: string; name: string }[];
  if (signIn) throw fieldError('email', 'accounts.emailSignsIn', { email: signIn.email, name: signIn.name });
  const [employee] = (
    await tx.execute(sql`
      select e as email, a.display_name as name
      from accounts a cross join lateral unnest(a.emails) e
      where a.is_employe and a.id <> all(${ownIds}) and lower(btrim(e)) = any(${wantedList})
      order by a.id limit 1`)
  ).rows as { email: string; name: string }[];
  if (employee) throw fieldError('email', 'accounts.emailOfEmployee', { email: employee.email, name: employee.name });
}

/** Ids of freshly uploaded files ("12,13") or a 400. */
function parseFileIds(filesNew: string | null | undefined): number[] {
  if (!filesNew?.trim()) return [];
  const parts = filesNew.split(',').map((s) => s.trim()).filter(Boolean);
  if (!parts.every((p) => /^\d{1,9}$/.test(p))) throw fieldError('filesNew', 'validation.invalid');
  return [...new Set(parts.map(Number))];
}

/** Attaches uploaded files that belong to no record yet (after the account's other files). */
async function attachFiles(tx: Tx, accountId: number, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await tx
    .update(files)
    .set({
      parentType: LinkKind.Account,
      parentId: accountId,
      sortOrder: sql`(select coalesce(max(f.sort_order) + 1, 0) from files f where f.parent_type = ${LinkKind.Account} and f.parent_id = ${accountId})`,
    })
    .where(and(inArray(files.id, ids), isNull(files.parentId), isNull(files.detachedOn)))
    .returning({ id: files.id });
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** Whether taking admin away from these sign-ins would leave the agency without an active administrator. */
async function wouldRemoveLastAdmin(tx: Tx, userIds: number[]): Promise<boolean> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(sql`'admin' = any(${users.roles})`, eq(users.disabled, false), notInArray(users.id, userIds)));
  return (row?.n ?? 0) === 0;
}

/** Keeps the sign-ins of an account in step with its role and branch. */
async function syncSignIns(tx: Tx, caller: Caller, accountId: number, set: { role?: string | null; branchId?: number | null }) {
  const newRole = 'role' in set && set.role ? set.role : undefined;
  const newBranch = 'branchId' in set ? (set.branchId ?? null) : undefined;
  if (newRole === undefined && newBranch === undefined) return;
  const linked = await tx.select().from(users).where(eq(users.accountId, accountId));
  const changed = linked.filter(
    (u) => (newRole !== undefined && u.roles.join() !== newRole) || (newBranch !== undefined && u.branchId !== newBranch),
  );
  if (!changed.length) return;
  if (newRole !== undefined && newRole !== 'admin') {
    const admins = changed.filter((u) => u.roles.includes('admin') && !u.disabled).map((u) => u.id);
    if (admins.length && (await wouldRemoveLastAdmin(tx, admins))) throw fieldError('role', 'accounts.lastAdmin');
  }
  for (const u of changed) {
    const userSet = {
      ...(newRole !== undefined ? { roles: [newRole] } : {}),
      ...(newBranch !== undefined ? { branchId: newBranch } : {}),
    };
    await tx.update(users).set({ ...userSet, modifiedOn: new Date() }).where(eq(users.id, u.id));
    await logAction(tx, caller.actor, { action: 'Update', entity: 'User', entityId: u.id, message: u.email, data: userSet });
  }
}

export async function addAccount(app: FastifyInstance, caller: Caller, body: TAccountAdd): Promise<{ id: number }> {
  return app.db.transaction(async (tx) => {
    const { set } = await prepareChanges(tx, caller, body, undefined);
    const [row] = await tx
      .insert(accounts)
      .values({ ...set, firstName: body.firstName, lastName: body.lastName, createdBy: caller.user.id, modifiedBy: caller.user.id })
      .returning({ id: accounts.id, displayName: accounts.displayName });
    await linkMailToNewAddresses(tx, row!.id, [], set.emails ?? []);
    await logAction(tx, caller.actor, { action: 'Create', entity: 'Account', entityId: row!.id, message: row!.displayName, data: body });
    return { id: row!.id };
  });
}

async function lockAccount(tx: Tx, id: number): Promise<AccountRow | undefined> {
  const [row] = await tx.select().from(accounts).where(eq(accounts.id, id)).for('update');
  return row;
}

/**
 * Applies an update to a locked row: version check, validation, files, the write, sign-ins.
 * Answers the changes, or null when the values sent are the stored ones (no new version then).
 */
async function applyUpdate(app: FastifyInstance, tx: Tx, caller: Caller, current: AccountRow, body: TAccountUpdate, samePerson: number[] = []) {
  if (requireVersion(body.version) !== current.version) throw conflict(accountForCaller(caller.user, await requireAccountDto(app, tx, current.id)));
  // An erased person's data comes back only as a new entry (a new account), never by editing the number it became.
  if (current.erasedOn) throw badRequest('accounts.erase.closed');
  const { set, changes } = await prepareChanges(tx, caller, body, current, samePerson);
  const fileIds = parseFileIds(body.filesNew);
  const attached = await attachFiles(tx, current.id, fileIds);
  if (attached.length) changes.filesAttached = attached;
  if (!Object.keys(changes).length) return null;
  await tx
    .update(accounts)
    .set({ ...set, version: current.version + 1, modifiedOn: new Date(), modifiedBy: caller.user.id })
    .where(eq(accounts.id, current.id));
  // Mail already synced from or to an address it gains is the account's now (decision 078).
  if (set.emails) await linkMailToNewAddresses(tx, current.id, current.emails, set.emails);
  // Only an employee's role and branch are its sign-in's (a client's payments sign-in keeps its own).
  if (set.isEmploye ?? current.isEmploye) await syncSignIns(tx, caller, current.id, set);
  else if (current.isEmploye && set.isEmploye === false) await endSignIns(tx, caller, current.id, ['admin', 'employee']);
  return changes;
}

export async function updateAccount(app: FastifyInstance, caller: Caller, body: TAccountUpdate): Promise<TAccount> {
  return app.db.transaction(async (tx) => {
    const current = await lockAccount(tx, body.id);
    if (!current) throw notFound();
    const changes = await applyUpdate(app, tx, caller, current, body);
    if (changes) await logAction(tx, caller.actor, { action: 'Update', entity: 'Account', entityId: current.id, data: changes });
    return requireAccountDto(app, tx, current.id);
  });
}

/**
 * Ends the account's sign-ins (those with one of `roles`, or all) and their sessions, in the
 * caller's transaction: an employee who is deleted or no longer an employee cannot sign in.
 */
async function endSignIns(tx: Tx, caller: Caller, accountId: number, roles?: string[]) {
  const linked = (await tx.select().from(users).where(and(eq(users.accountId, accountId), eq(users.disabled, false)))).filter(
    (u) => !roles || u.roles.some((r) => roles.includes(r)),
  );
  if (!linked.length) return;
  const admins = linked.filter((u) => u.roles.includes('admin')).map((u) => u.id);
  // A deletion or the employee flag, not a field on screen: the message is the answer's title.
  if (admins.length && (await wouldRemoveLastAdmin(tx, admins))) throw badRequest('accounts.lastAdmin');
  const ids = linked.map((u) => u.id);
  await tx.update(users).set({ disabled: true, modifiedOn: new Date() }).where(inArray(users.id, ids));
  await tx.update(sessions).set({ revokedOn: new Date() }).where(and(inArray(sessions.userId, ids), isNull(sessions.revokedOn)));
  for (const u of linked) await logAction(tx, caller.actor, { action: 'Disable', entity: 'User', entityId: u.id, message: u.email, data: { accountId } });
}

async function hasSignIn(tx: Tx, id: number) {
  const [u] = await tx.select({ id: users.id }).from(users).where(eq(users.accountId, id)).limit(1);
  return !!u;
}

export async function deleteAccount(app: FastifyInstance, caller: Caller, id: number) {
  const afterCommit: (() => Promise<void>)[] = [];
  await app.db.transaction(async (tx) => {
    const current = await lockAccount(tx, id);
    if (!current) throw notFound();
    // An employee's account (flagged, or someone signs in with it): only the office admins remove it.
    if (!canManageRoles(caller.user) && (current.isEmploye || (await hasSignIn(tx, id)))) throw accessDenied();
    const stepLog: Record<string, unknown> = {};
    for (const step of app.accountDeleteSteps) {
      const done = await step(tx, id, caller);
      if (done?.log) Object.assign(stepLog, done.log);
      if (done?.afterCommit) afterCommit.push(done.afterCommit);
    }
    await endSignIns(tx, caller, id);
    await tx.update(users).set({ accountId: null }).where(eq(users.accountId, id));
    await tx.delete(assignments).where(and(eq(assignments.parent, ASSIGNMENT_PARENT_ACCOUNT), eq(assignments.parentId, id)));
    const orphans = await deleteActivityLinks(tx, LinkKind.Account, id);
    await tx
      .update(files)
      .set({ parentType: null, parentId: null, detachedOn: sql`now()` })
      .where(and(eq(files.parentType, LinkKind.Account), eq(files.parentId, id)));
    await tx.update(accounts).set({ sourceId: null }).where(eq(accounts.sourceId, id));
    await tx.delete(accounts).where(eq(accounts.id, id));
    await logAction(tx, caller.actor, {
      action: 'Delete',
      entity: 'Account',
      entityId: id,
      message: current.displayName,
      data: { displayName: current.displayName, deletedActivities: orphans, ...stepLog },
    });
  });
  for (const run of afterCommit) await run().catch(() => {});
}

/**
 * Keeps account `body.id` with the chosen values and folds the duplicate into it: every record
 * that pointed at the duplicate points at the kept account, then the duplicate is deleted.
 */
export async function mergeAccounts(app: FastifyInstance, caller: Caller, body: TAccountUpdate, duplicateId: number): Promise<TAccount> {
  if (duplicateId === body.id) throw badRequest('accounts.mergeSame');
  return app.db.transaction(async (tx) => {
    // Lock both in id order, so two merges of the same pair cannot deadlock.
    const locked = await tx
      .select()
      .from(accounts)
      .where(inArray(accounts.id, [body.id, duplicateId]))
      .orderBy(accounts.id)
      .for('update');
    const kept = locked.find((r) => r.id === body.id);
    const dup = locked.find((r) => r.id === duplicateId);
    if (!kept || !dup) throw notFound();
    if (kept.erasedOn || dup.erasedOn) throw badRequest('accounts.erase.closed');
    // Folding an employee's account away ends it as surely as deleting it.
    if (!canManageRoles(caller.user) && (dup.isEmploye || (await hasSignIn(tx, duplicateId)))) throw accessDenied();
    // A language from the list, or the duplicate's as it is stored (one typed before the list was).
    const language = body.language?.trim();
    if (language && !isAccountLanguage(language) && language !== dup.language?.trim()) throw fieldError('language', 'validation.language');
    const changes = await applyUpdate(app, tx, caller, kept, body, [dup.id]);
    const k = kept.id;
    const d = dup.id;
    // The earliest dates of becoming a client or an owner survive; the merge is a new version.
    await tx.execute(sql`
      update accounts set
        is_client_date = case when is_client then least(is_client_date, ${dup.isClientDate}::timestamptz) else is_client_date end,
        is_owner_date = case when is_owner then least(is_owner_date, ${dup.isOwnerDate}::timestamptz) else is_owner_date end,
        version = ${kept.version + 1}, modified_on = now(), modified_by = ${caller.user.id}
      where id = ${k}`);
    // Activities: one link per (activity, account).
    await tx.execute(sql`
      update activity_links l set entity_id = ${k}
      where l.entity = ${LinkKind.Account} and l.entity_id = ${d}
        and not exists (select 1 from activity_links x where x.activity_id = l.activity_id and x.entity = ${LinkKind.Account} and x.entity_id = ${k})`);
    await tx.delete(activityLinks).where(and(eq(activityLinks.entity, LinkKind.Account), eq(activityLinks.entityId, d)));
    await tx.update(activities).set({ assignedTo: k }).where(eq(activities.assignedTo, d));
    // People assigned to the duplicate, and the duplicate assigned to other records.
    await tx.execute(sql`
      update assignments a set parent_id = ${k}
      where a.parent = ${ASSIGNMENT_PARENT_ACCOUNT} and a.parent_id = ${d}
        and not exists (select 1 from assignments x where x.parent = a.parent and x.parent_id = ${k} and x.account_id = a.account_id)`);
    await tx.delete(assignments).where(and(eq(assignments.parent, ASSIGNMENT_PARENT_ACCOUNT), eq(assignments.parentId, d)));
    await tx.execute(sql`
      update assignments a set account_id = ${k}
      where a.account_id = ${d}
        and not exists (select 1 from assignments x where x.parent = a.parent and x.parent_id = a.parent_id and x.account_id = ${k})`);
    // An account assigned to itself makes no sense after the fold.
    await tx.delete(assignments).where(
      and(eq(assignments.parent, ASSIGNMENT_PARENT_ACCOUNT), eq(assignments.parentId, k), eq(assignments.accountId, k)),
    );
    await tx.execute(sql`
      update files set parent_id = ${k},
        sort_order = sort_order + (select coalesce(max(f.sort_order) + 1, 0) from files f where f.parent_type = ${LinkKind.Account} and f.parent_id = ${k})
      where parent_type = ${LinkKind.Account} and parent_id = ${d}`);
    // A staff sign-in of the folded account ends, as on delete: the kept account's own employee flag,
    // role and branch decide who signs in for it. A client's payments sign-in follows the statement.
    await endSignIns(tx, caller, d, ['admin', 'employee']);
    await tx.update(users).set({ accountId: k, modifiedOn: new Date() }).where(eq(users.accountId, d));
    await tx.update(accounts).set({ sourceId: k }).where(and(eq(accounts.sourceId, d), ne(accounts.id, k)));
    // The kept account cannot be its own source.
    await tx.update(accounts).set({ sourceId: null }).where(and(eq(accounts.id, k), inArray(accounts.sourceId, [k, d])));
    for (const step of app.accountMergeSteps) await step(tx, k, d, caller);
    await tx.delete(accounts).where(eq(accounts.id, d));
    await logAction(tx, caller.actor, {
      action: 'Merge',
      entity: 'Account',
      entityId: k,
      message: `${kept.displayName} ← ${dup.displayName}`,
      data: { keptId: k, duplicateId: d, duplicateName: dup.displayName, changes },
    });
    return requireAccountDto(app, tx, k);
  });
}

export async function getUserRole(app: FastifyInstance, t: (key: string) => string, id: number) {
  const [a] = await app.db.select({ name: accounts.displayName, role: accounts.role }).from(accounts).where(eq(accounts.id, id));
  if (!a) throw notFound();
  return { name: a.name, role: a.role, roleList: roleOptions(t) };
}

/** POST /api/UserRole/{id}: the employee's role, and the role of its sign-in. */
export async function setUserRole(app: FastifyInstance, caller: Caller, id: number, role: string) {
  if (!(EMPLOYEE_ROLES as readonly string[]).includes(role)) throw fieldError('role', 'validation.choice');
  await app.db.transaction(async (tx) => {
    const current = await lockAccount(tx, id);
    if (!current) throw notFound();
    if (!current.isEmploye) throw badRequest('accounts.notEmployee');
    if (current.role !== role) {
      await tx
        .update(accounts)
        .set({ role, version: current.version + 1, modifiedOn: new Date(), modifiedBy: caller.user.id })
        .where(eq(accounts.id, id));
      await logAction(tx, caller.actor, { action: 'Update', entity: 'Account', entityId: id, message: current.displayName, data: { role } });
    }
    await syncSignIns(tx, caller, id, { role });
  });
}

/** The employee account whose e-mail this is (the one a new sign-in for that e-mail would belong to). */
export async function findEmployeeByEmail(db: Db | Tx, email: string) {
  const wanted = email.trim().toLowerCase();
  if (!wanted) return undefined;
  const [a] = await db
    .select({
      id: accounts.id,
      displayName: accounts.displayName,
      role: accounts.role,
      branchId: accounts.branchId,
      email: sql<string>`(select e from unnest(${accounts.emails}) e where lower(btrim(e)) = ${wanted} limit 1)`,
    })
    .from(accounts)
    .where(
      and(
        eq(accounts.isEmploye, true),
        // The trigram index narrows the candidates; the exact test is on the array.
        sql`${accounts.searchText} like ${containsPattern(wanted)}`,
        sql`exists (select 1 from unnest(${accounts.emails}) e where lower(btrim(e)) = ${wanted})`,
      ),
    )
    .orderBy(accounts.id)
    .limit(1);
  if (!a) return undefined;
  const role: TRole = (ROLES as readonly string[]).includes(a.role ?? '') ? (a.role as TRole) : 'employee';
  return { ...a, role };
}

/**
 * When an admin sets a password for an e-mail nobody signs in with, and an employee account has
 * that e-mail, the employee gets a sign-in with the account's role and branch.
 */
export function makeProvisionSignIn() {
  return async (tx: Tx, email: string, actor: Actor) => {
    const a = await findEmployeeByEmail(tx, email);
    if (!a) return undefined;
    const [u] = await tx
      .insert(users)
      .values({ email: a.email, username: a.displayName || a.email, roles: [a.role], branchId: a.branchId, accountId: a.id })
      .returning();
    await logAction(tx, actor, {
      action: 'Create',
      entity: 'User',
      entityId: u!.id,
      message: u!.email,
      data: { accountId: a.id, roles: [a.role], branchId: a.branchId },
    });
    return u;
  };
}

