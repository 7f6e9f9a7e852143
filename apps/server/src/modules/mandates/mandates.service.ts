import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import {
  addMonths,
  EXCLUSIVE_MAX_MONTHS,
  EXTENSION_MAX_MONTHS,
  EXTENSIONS_MAX,
  formatReferenceNumber,
  LinkKind,
  MANDATE_ENDING_SOON_DAYS,
  type TMandate,
  type TMandateEnding,
  type TMandateException,
  type TMandateListAnswer,
  type ZMandateEdit,
} from '@crm/contract';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { AppError, conflict, fieldError, notFound, requireVersion } from '../../lib/errors.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { agencyToday, toLocalDateTime } from '../../lib/dates.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { objectTitle } from '../objects/objects.sql.ts';

/** The action log's entity of a mandate (its data names the property: objectId). */
export const MANDATE_LOG_ENTITY = 'Mandate';

export type MandateCaller = { user: SessionUser; actor: Actor };
type Body = z.output<typeof ZMandateEdit>;
type Row = Record<string, unknown>;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const day = (v: unknown) => (v === null || v === undefined ? null : String(v).slice(0, 10));

/** The mandates of a property (or one mandate), with their owners' identity as their accounts hold it. */
async function loadMandates(db: Db | Tx, where: { objectId?: number; id?: number }, timeZone: string): Promise<TMandate[]> {
  const today = agencyToday(timeZone);
  const rows = await db.execute(sql`
    select m.*, coalesce(ca.display_name, cu.username) as created_by_name, coalesce(ma.display_name, mu.username) as modified_by_name,
      coalesce((select json_agg(json_build_object(
          'accountId', a.id, 'name', a.display_name, 'fatherName', nullif(btrim(a.middle_name), ''),
          'idNumber', nullif(btrim(a.internal_passport_number), ''), 'passportNumber', nullif(btrim(a.passport_number), ''),
          'taxNumber', coalesce(nullif(btrim(a.tax_number), ''), nullif(btrim(a.tax_number_of_other_country), '')),
          'address', nullif(concat_ws(', ', nullif(btrim(a.address), ''), nullif(btrim(concat_ws(' ', nullif(btrim(a.postcode), ''), nullif(btrim(a.city), ''))), '')), ''),
          'taxOffice', o.tax_office) order by o.position, a.id)
        from object_mandate_owners o join accounts a on a.id = o.account_id where o.mandate_id = m.id), '[]'::json) as owners
    from object_mandates m
    left join users cu on cu.id = m.created_by left join accounts ca on ca.id = cu.account_id
    left join users mu on mu.id = m.modified_by left join accounts ma on ma.id = mu.account_id
    where ${where.id !== undefined ? sql`m.id = ${where.id}` : sql`m.object_id = ${where.objectId ?? 0}`}
    order by m.start_date desc, m.id desc`);
  return (rows.rows as Row[]).map((r) => {
    const startDate = day(r.start_date)!;
    const endDate = day(r.end_date)!;
    const extendedUntil = day(r.extended_until);
    return {
      id: Number(r.id),
      objectId: Number(r.object_id),
      kind: r.kind as TMandate['kind'],
      startDate,
      endDate,
      extendedUntil,
      askingPrice: num(r.asking_price),
      commissionPercent: num(r.commission_percent),
      commissionAmount: num(r.commission_amount),
      exceptions: (r.exceptions ?? []) as TMandateException[],
      notes: (r.notes as string | null) ?? null,
      owners: r.owners as TMandate['owners'],
      inForce: startDate <= today && today <= (extendedUntil ?? endDate),
      createdOn: toLocalDateTime(new Date(r.created_on as string), timeZone)!,
      createdBy: (r.created_by_name as string | null) ?? null,
      modifiedOn: toLocalDateTime(new Date(r.modified_on as string), timeZone)!,
      modifiedBy: (r.modified_by_name as string | null) ?? null,
      version: Number(r.version),
    };
  });
}

/** The mandate in force among a property's (the one ending last when two overlap), or null. */
const inForceOf = (items: TMandate[]) =>
  items.filter((m) => m.inForce).sort((a, b) => (b.extendedUntil ?? b.endDate).localeCompare(a.extendedUntil ?? a.endDate))[0] ?? null;

/** GET /api/Mandate?objectId=: the property's mandates, newest first, and the one in force. */
export async function listMandates(app: FastifyInstance, objectId: number): Promise<TMandateListAnswer> {
  const items = await loadMandates(app.db, { objectId }, app.config.timeZone);
  return { items, inForce: inForceOf(items) };
}

export async function getMandate(app: FastifyInstance, db: Db | Tx, id: number): Promise<TMandate> {
  const [m] = await loadMandates(db, { id }, app.config.timeZone);
  if (!m) throw notFound('mandates.notFound');
  return m;
}

/**
 * The law's limits (law 4072/2012 art. 200, decision 079), each refused at its field with the law's
 * reason: an exclusive mandate lasts at most 8 months, and is extended at most once, by at most 4
 * months past its end. A later extension than the one stored is a second extension; an earlier or
 * equal one corrects it. A simple mandate has no such limits; its extension only follows its end.
 */
export function checkMandateLaw(body: Pick<Body, 'kind' | 'startDate' | 'endDate' | 'extendedUntil'>, stored: { extendedUntil: string | null; extensions: number } | null): number {
  if (body.endDate < body.startDate) throw fieldError('endDate', 'mandates.endBeforeStart');
  const ext = body.extendedUntil ?? null;
  if (ext !== null && ext <= body.endDate) throw fieldError('extendedUntil', 'mandates.extensionBeforeEnd');
  const storedExt = stored?.extendedUntil ?? null;
  const another = ext !== null && storedExt !== null && ext > storedExt;
  const extensions = ext === null ? 0 : storedExt === null ? 1 : (stored?.extensions ?? 1) + (another ? 1 : 0);
  if (body.kind !== 'exclusive') return Math.min(extensions, 1);
  if (body.endDate > addMonths(body.startDate, EXCLUSIVE_MAX_MONTHS)) {
    throw fieldError('endDate', 'mandates.law.exclusiveTooLong', { months: EXCLUSIVE_MAX_MONTHS, last: dmy(addMonths(body.startDate, EXCLUSIVE_MAX_MONTHS)) });
  }
  if (extensions > EXTENSIONS_MAX) throw fieldError('extendedUntil', 'mandates.law.extendedOnce', { months: EXTENSION_MAX_MONTHS });
  if (ext !== null && ext > addMonths(body.endDate, EXTENSION_MAX_MONTHS)) {
    throw fieldError('extendedUntil', 'mandates.law.extensionTooLong', { months: EXTENSION_MAX_MONTHS, last: dmy(addMonths(body.endDate, EXTENSION_MAX_MONTHS)) });
  }
  return extensions;
}

const dmy = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`;

/** What the action log keeps of a mandate (its owners by account id); the import's new mandates too. */
export const mandateLogData = (m: Pick<TMandate, 'kind' | 'startDate' | 'endDate' | 'extendedUntil' | 'askingPrice' | 'commissionPercent' | 'commissionAmount' | 'exceptions' | 'notes'> & { owners: { accountId: number; taxOffice: string | null }[] }) => ({
  kind: m.kind,
  startDate: m.startDate,
  endDate: m.endDate,
  extendedUntil: m.extendedUntil,
  askingPrice: m.askingPrice,
  commissionPercent: m.commissionPercent,
  commissionAmount: m.commissionAmount,
  exceptions: m.exceptions,
  notes: m.notes,
  ownerIds: m.owners.map((o) => o.accountId),
  taxOffices: m.owners.map((o) => o.taxOffice),
});

const clean = (s: string | null | undefined) => {
  const v = (s ?? '').trim();
  return v === '' ? null : v;
};

/**
 * POST /api/Mandate/update: a new mandate (no id) or a change based on its version (a stale one is a
 * 409 with the current mandate). The law's limits are checked first: a refusal stores nothing.
 * Owners are accounts (unknown or erased ones refused); the change is one action-log row.
 */
export async function saveMandate(app: FastifyInstance, caller: MandateCaller, body: Body): Promise<TMandate> {
  return app.db.transaction(async (tx) => {
    const obj = await tx.execute(sql`select id from objects where id = ${body.objectId} for share`);
    if (!obj.rows.length) throw fieldError('objectId', 'mandates.noProperty');
    let stored: Row | undefined;
    if (body.id) {
      stored = (await tx.execute(sql`select * from object_mandates where id = ${body.id} for update`)).rows[0] as Row | undefined;
      if (!stored) throw notFound('mandates.notFound');
      if (Number(stored.object_id) !== body.objectId) throw fieldError('objectId', 'mandates.noProperty');
      if (Number(stored.version) !== requireVersion(body.version)) throw conflict(await getMandate(app, tx, body.id));
    }
    const extensions = checkMandateLaw(body, stored ? { extendedUntil: day(stored.extended_until), extensions: Number(stored.extensions) } : null);
    const owners = [...new Map(body.owners.map((o) => [o.accountId, { accountId: o.accountId, taxOffice: clean(o.taxOffice) }])).values()];
    if (owners.length) {
      const found = await tx.execute(sql`select id from accounts where id = any(${sql.param(owners.map((o) => o.accountId))}::int[]) and erased_on is null`);
      const ids = new Set((found.rows as { id: number }[]).map((r) => Number(r.id)));
      if (owners.some((o) => !ids.has(o.accountId))) throw fieldError('owners', 'mandates.ownerUnknown');
    }
    const exceptions = body.exceptions.map((e) => ({ name: e.name.trim(), note: clean(e.note) }));
    const values = {
      kind: body.kind,
      startDate: body.startDate,
      endDate: body.endDate,
      extendedUntil: body.extendedUntil ?? null,
      askingPrice: body.askingPrice ?? null,
      commissionPercent: body.commissionPercent ?? null,
      commissionAmount: body.commissionAmount ?? null,
      exceptions,
      notes: clean(body.notes),
    };
    const before = stored ? await getMandate(app, tx, body.id!) : null;
    // A new end (or extension) is told about again: its alerts were for the old one.
    const endMoved = !stored || day(stored.extended_until) !== values.extendedUntil || day(stored.end_date) !== values.endDate;
    let id: number;
    if (!stored) {
      const res = await tx.execute(sql`insert into object_mandates (object_id, kind, start_date, end_date, extended_until, extensions, asking_price, commission_percent,
          commission_amount, exceptions, notes, created_by, modified_by)
        values (${body.objectId}, ${values.kind}, ${values.startDate}, ${values.endDate}, ${values.extendedUntil}, ${extensions}, ${values.askingPrice}, ${values.commissionPercent},
          ${values.commissionAmount}, ${JSON.stringify(exceptions)}::jsonb, ${values.notes}, ${caller.user.id}, ${caller.user.id})
        returning id`);
      id = Number((res.rows[0] as { id: number }).id);
    } else {
      id = body.id!;
      await tx.execute(sql`update object_mandates set kind = ${values.kind}, start_date = ${values.startDate}, end_date = ${values.endDate},
          extended_until = ${values.extendedUntil}, extensions = ${extensions}, asking_price = ${values.askingPrice}, commission_percent = ${values.commissionPercent},
          commission_amount = ${values.commissionAmount}, exceptions = ${JSON.stringify(exceptions)}::jsonb, notes = ${values.notes},
          ${endMoved ? sql`alert_30_on = null, alert_10_on = null,` : sql``}
          modified_on = now(), modified_by = ${caller.user.id}, version = version + 1
        where id = ${id}`);
      await tx.execute(sql`delete from object_mandate_owners where mandate_id = ${id}`);
    }
    for (const [position, o] of owners.entries()) {
      await tx.execute(sql`insert into object_mandate_owners (mandate_id, account_id, position, tax_office) values (${id}, ${o.accountId}, ${position}, ${o.taxOffice})`);
    }
    const after = mandateLogData({ ...values, owners });
    const data: Record<string, unknown> = { objectId: body.objectId };
    if (before) {
      const was = mandateLogData(before) as Record<string, unknown>;
      for (const [k, v] of Object.entries(after)) if (JSON.stringify(was[k]) !== JSON.stringify(v)) data[k] = { from: was[k], to: v };
    } else Object.assign(data, after);
    await logAction(tx, caller.actor, { action: stored ? 'Update' : 'Create', entity: MANDATE_LOG_ENTITY, entityId: id, data });
    return getMandate(app, tx, id);
  });
}

/** DELETE /api/Mandate/{id}?version=: a mandate recorded by mistake; its signed documents are detached (and purged as a deleted record's files are). */
export async function deleteMandate(app: FastifyInstance, caller: MandateCaller, id: number, version: number | undefined) {
  await app.db.transaction(async (tx) => {
    const stored = (await tx.execute(sql`select * from object_mandates where id = ${id} for update`)).rows[0] as Row | undefined;
    if (!stored) throw notFound('mandates.notFound');
    if (Number(stored.version) !== requireVersion(version)) throw conflict(await getMandate(app, tx, id));
    const before = await getMandate(app, tx, id);
    // Its signed documents are detached and purged with other files of deleted records.
    await tx.execute(sql`update files set parent_type = null, parent_id = null, detached_on = now() where parent_type = ${LinkKind.Mandate} and parent_id = ${id}`);
    await tx.execute(sql`delete from object_mandates where id = ${id}`);
    await logAction(tx, caller.actor, { action: 'Delete', entity: MANDATE_LOG_ENTITY, entityId: id, data: { objectId: before.objectId, ...mandateLogData(before) } });
  });
}

/**
 * GET /api/Mandate/endingSoon: mandates in force whose end (or extension's) is within 30 days of
 * the agency's day, soonest first, with the property, its owners and its agents; `mine` only those
 * of the properties the caller is assigned to.
 */
export async function mandatesEndingSoon(app: FastifyInstance, user: SessionUser, mine: boolean, culture: string): Promise<{ items: TMandateEnding[] }> {
  const today = agencyToday(app.config.timeZone);
  const res = await app.db.execute(sql`
    select m.id, m.object_id, o.reference_number, ${objectTitle(culture, 'o')} as title, m.kind, coalesce(m.extended_until, m.end_date)::text as ends,
      (coalesce(m.extended_until, m.end_date) - ${today}::date) as days_left,
      (select string_agg(a.display_name, ', ' order by mo.position) from object_mandate_owners mo join accounts a on a.id = mo.account_id where mo.mandate_id = m.id) as owners,
      (select string_agg(a.display_name, ', ' order by a.display_name) from assignments s join accounts a on a.id = s.account_id where s.parent = 0 and s.parent_id = m.object_id) as agents
    from object_mandates m join objects o on o.id = m.object_id
    where m.start_date <= ${today}::date and coalesce(m.extended_until, m.end_date) between ${today}::date and ${today}::date + ${MANDATE_ENDING_SOON_DAYS}::int
      ${mine ? sql`and exists (select 1 from assignments s join users u on u.account_id = s.account_id where s.parent = 0 and s.parent_id = m.object_id and u.id = ${user.id})` : sql``}
    order by coalesce(m.extended_until, m.end_date), o.reference_number, m.id
    limit 500`);
  return {
    items: (res.rows as Row[]).map((r) => ({
      id: Number(r.id),
      objectId: Number(r.object_id),
      referenceNumber: formatReferenceNumber(Number(r.reference_number)),
      objectTitle: (r.title as string | null) ?? null,
      kind: r.kind as TMandate['kind'],
      endsOn: String(r.ends),
      daysLeft: Number(r.days_left),
      owners: (r.owners as string | null) ?? null,
      agents: (r.agents as string | null) ?? null,
    })),
  };
}

/** Whether a property has a mandate in force on the agency's day. */
export async function hasMandateInForce(tx: Tx | Db, objectId: number, today: string): Promise<boolean> {
  const res = await tx.execute(sql`select 1 from object_mandates where object_id = ${objectId} and start_date <= ${today}::date and coalesce(extended_until, end_date) >= ${today}::date limit 1`);
  return res.rows.length > 0;
}

/**
 * The publish gate (decision 079), told of every saved property change inside its transaction:
 * asking for the property to be published, when the agency's setting requires a mandate and none
 * is in force today, is refused (400, translated), and the change is not stored.
 */
export function mandatePublishGate(app: FastifyInstance) {
  return async (tx: Tx, change: { id: number; before: Record<string, unknown>; after: Record<string, unknown>; changed: string[] }) => {
    if (!change.changed.includes('publishRequested') || change.after.publishRequested !== true || change.before.publishRequested === true) return;
    const setting = await tx.execute(sql`select mandate_required_to_publish as on from site_settings where id = 1`);
    if ((setting.rows[0] as { on: boolean } | undefined)?.on !== true) return;
    if (await hasMandateInForce(tx, change.id, agencyToday(app.config.timeZone))) return;
    throw new AppError(400, 'mandates.requiredToPublish', {}, { publishRequested: [{ code: 'mandates.requiredToPublish' }] });
  };
}
