import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { formatReferenceNumber, OWNER_REPORT_LINK_DAYS, type TCulture, type TOwnerReportLink, type TOwnerReportPublic, type TOwnerReportSent, type TOwnerReportState } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { sha256 } from '../../lib/passwords.ts';
import { agencyToday } from '../../lib/dates.ts';
import { linkBase } from '../settings/site-settings.service.ts';
import { MAIL_LETTERS, buildMail, readAgencyIdentity } from '../../mail/mail-people.ts';
import { mandateInForce, mandateOwners, ownerCulture, readReport, readState, type OwnerRow } from './owner-reports.read.ts';

/**
 * The owner's report (issue 47, decision 087). Staff make a link (256 random bits, kept as its
 * SHA-256, working OWNER_REPORT_LINK_DAYS unless revoked), mail it to the mandate's owners now, or
 * switch on the monthly mail; they share a viewing's comment with the owner (kept as it was then).
 * The owner's page opens the one property of its link, while a mandate of it is in force.
 */

export const OWNER_REPORT_ENTITY = 'OwnerReport';
export const OWNER_REPORT_MONTHLY_JOB = 'ownerReports.monthly';
type Caller = { userId: number; actor: Actor };
type Row = Record<string, unknown>;

const hashOf = (token: string) => sha256(token).toString('hex');
export const ownerReportPath = (token: string) => `/OwnerReport/${token}`;

async function requireObject(db: Db | Tx, objectId: number): Promise<string> {
  const [o] = (await db.execute(sql`select reference_number from objects where id = ${objectId}`)).rows as Row[];
  if (!o) throw notFound('objects.notFound');
  return formatReferenceNumber(Number(o.reference_number));
}

export async function getState(app: FastifyInstance, objectId: number): Promise<TOwnerReportState> {
  await requireObject(app.db, objectId);
  return readState(app, app.db, objectId);
}

/** A new link to the property's report in the owner's language; its address is answered this once. */
async function makeLink(app: FastifyInstance, tx: Tx | Db, objectId: number, language: TCulture, userId: number | null): Promise<{ id: number; url: string; hint: string }> {
  const token = randomBytes(32).toString('base64url');
  const hint = `${token.slice(0, 6)}…`;
  const res = await tx.execute(sql`insert into owner_report_links (object_id, token_hash, hint, language, made_by, expires_on)
    values (${objectId}, ${hashOf(token)}, ${hint}, ${language}, ${userId}, now() + make_interval(days => ${OWNER_REPORT_LINK_DAYS})) returning id`);
  return { id: Number((res.rows[0] as Row).id), url: `${await linkBase(app)}${ownerReportPath(token)}`, hint };
}

async function requireMandate(app: FastifyInstance, db: Db | Tx, objectId: number) {
  const mandate = await mandateInForce(db, objectId, app.config.timeZone);
  if (!mandate) throw badRequest('ownerReport.noMandate');
  return mandate;
}

/** POST /api/ownerReport/{id}/link: a link in the first owner's language (Greek when none says otherwise). */
export async function createLink(app: FastifyInstance, caller: Caller, objectId: number): Promise<TOwnerReportLink> {
  const ref = await requireObject(app.db, objectId);
  const url = await app.db.transaction(async (tx) => {
    const mandate = await requireMandate(app, tx, objectId);
    const [first] = await mandateOwners(tx, mandate.id);
    const link = await makeLink(app, tx, objectId, first?.language ?? 'el', caller.userId);
    await logAction(tx, caller.actor, { action: 'Create', entity: OWNER_REPORT_ENTITY, entityId: objectId, message: `#${ref}`, data: { objectId, link: link.id, hint: link.hint } });
    return link.url;
  });
  return { url, state: await readState(app, app.db, objectId) };
}

/** The mail to one owner with a new link in their language; queued in the caller's transaction. */
async function mailOwner(app: FastifyInstance, tx: Tx, objectId: number, ref: string, owner: OwnerRow & { email: string }, userId: number | null, monthly: boolean) {
  const link = await makeLink(app, tx, objectId, owner.language, userId);
  const params = { ref, days: OWNER_REPORT_LINK_DAYS };
  const { mail } = await buildMail(app, {
    db: tx,
    agency: await readAgencyIdentity(app),
    to: owner.email,
    accountId: owner.accountId,
    culture: owner.language,
    fallback: owner.language,
    agentUserId: userId,
    letter: MAIL_LETTERS.alert({
      subjectKey: monthly ? 'ownerReport.mail.subjectMonthly' : 'ownerReport.mail.subject',
      messageKey: 'ownerReport.mail.body',
      params,
      links: [{ url: link.url, labelKey: 'ownerReport.mail.button' }],
    }),
  });
  await app.mailer.send(mail, { tx });
  return link;
}

/** POST /api/ownerReport/{id}/send: each owner with an e-mail gets a new link in their language now. */
export async function sendNow(app: FastifyInstance, caller: Caller, objectId: number): Promise<TOwnerReportSent> {
  const ref = await requireObject(app.db, objectId);
  const sentTo = await app.db.transaction(async (tx) => {
    const mandate = await requireMandate(app, tx, objectId);
    const owners = (await mandateOwners(tx, mandate.id)).filter((o): o is OwnerRow & { email: string } => o.email !== null);
    if (!owners.length) throw badRequest('ownerReport.noOwnerEmail');
    for (const o of owners) await mailOwner(app, tx, objectId, ref, o, caller.userId, false);
    const to = owners.map((o) => o.email);
    await logAction(tx, caller.actor, { action: 'SendOwnerReport', entity: OWNER_REPORT_ENTITY, entityId: objectId, message: `#${ref}`, data: { objectId, to } });
    return to;
  });
  return { sentTo, state: await readState(app, app.db, objectId) };
}

/** POST /api/ownerReport/{id}/revoke: every working link of the property stops at once. */
export async function revokeLinks(app: FastifyInstance, caller: Caller, objectId: number): Promise<TOwnerReportState> {
  const ref = await requireObject(app.db, objectId);
  await app.db.transaction(async (tx) => {
    const res = await tx.execute(sql`update owner_report_links set revoked_on = now(), revoked_by = ${caller.userId}
      where object_id = ${objectId} and revoked_on is null returning id`);
    if (res.rows.length) {
      await logAction(tx, caller.actor, { action: 'Revoke', entity: OWNER_REPORT_ENTITY, entityId: objectId, message: `#${ref}`, data: { objectId, links: res.rows.map((r) => Number((r as Row).id)) } });
    }
  });
  return readState(app, app.db, objectId);
}

/** POST /api/ownerReport/{id}/monthly: the monthly mail on or off (setting it twice changes nothing). */
export async function setMonthly(app: FastifyInstance, caller: Caller, objectId: number, monthly: boolean): Promise<TOwnerReportState> {
  const ref = await requireObject(app.db, objectId);
  await app.db.transaction(async (tx) => {
    const res = await tx.execute(sql`insert into owner_report_settings (object_id, monthly, modified_by) values (${objectId}, ${monthly}, ${caller.userId})
      on conflict (object_id) do update set monthly = excluded.monthly, modified_on = now(), modified_by = excluded.modified_by
      where owner_report_settings.monthly is distinct from excluded.monthly returning object_id`);
    if (res.rows.length) await logAction(tx, caller.actor, { action: 'Update', entity: OWNER_REPORT_ENTITY, entityId: objectId, message: `#${ref}`, data: { objectId, monthly } });
  });
  return readState(app, app.db, objectId);
}

/**
 * POST /api/ownerReport/{id}/share: a viewing's comment on the property shown to the owner (as it
 * reads now: a later change of the viewing does not reach the owner until shared again), or no longer.
 */
export async function shareComment(app: FastifyInstance, caller: Caller, objectId: number, viewingId: number, share: boolean): Promise<TOwnerReportState> {
  const ref = await requireObject(app.db, objectId);
  await app.db.transaction(async (tx) => {
    const [line] = (await tx.execute(sql`select comment from viewing_objects where viewing_id = ${viewingId} and object_id = ${objectId}`)).rows as Row[];
    if (!line) throw notFound('ownerReport.noSuchViewing');
    const comment = (line.comment as string | null)?.trim() ?? '';
    if (share) {
      if (!comment) throw badRequest('ownerReport.noComment');
      await tx.execute(sql`insert into owner_report_shares (viewing_id, object_id, comment, shared_by) values (${viewingId}, ${objectId}, ${comment}, ${caller.userId})
        on conflict (viewing_id, object_id) do update set comment = excluded.comment, shared_on = now(), shared_by = excluded.shared_by`);
    } else {
      await tx.execute(sql`delete from owner_report_shares where viewing_id = ${viewingId} and object_id = ${objectId}`);
    }
    await logAction(tx, caller.actor, { action: share ? 'ShareWithOwner' : 'UnshareWithOwner', entity: OWNER_REPORT_ENTITY, entityId: objectId, message: `#${ref}`, data: { objectId, viewingId } });
  });
  return readState(app, app.db, objectId);
}

/**
 * GET /api/ownerReport/public/{token}: the owner's page. Unknown: 404; revoked, past its days, or
 * the property no longer under a mandate in force: 404 saying so (nothing of the property shown).
 */
export async function viewReport(app: FastifyInstance, token: string): Promise<TOwnerReportPublic> {
  const [link] = (await app.db.execute(sql`select id, object_id, language, made_on, expires_on, revoked_on from owner_report_links where token_hash = ${hashOf(token)}`)).rows as Row[];
  if (!link) throw notFound('ownerReport.linkInvalid');
  if (link.revoked_on) throw new AppError(404, 'ownerReport.linkRevoked');
  const expiresOn = new Date(link.expires_on as string);
  if (expiresOn.getTime() <= Date.now()) throw new AppError(404, 'ownerReport.linkExpired');
  const objectId = Number(link.object_id);
  const mandate = await mandateInForce(app.db, objectId, app.config.timeZone);
  if (!mandate) throw new AppError(404, 'ownerReport.mandateEnded');
  // The link belongs to the mandate it was made under: a later mandate (another owner, perhaps) is not its owner's to read.
  const [same] = (await app.db.execute(sql`select created_on <= ${link.made_on as string}::timestamptz
      and start_date <= (${link.made_on as string}::timestamptz at time zone ${app.config.timeZone})::date as ok from object_mandates where id = ${mandate.id}`)).rows as Row[];
  if (same?.ok !== true) throw new AppError(404, 'ownerReport.mandateEnded');
  await app.db.execute(sql`update owner_report_links set opened_on = now() where id = ${Number(link.id)} and opened_on is null`);
  return readReport(app, { objectId, language: ownerCulture(link.language as string), madeOn: new Date(link.made_on as string), expiresOn }, mandate);
}

/**
 * The monthly mail (job ownerReports.monthly, hourly): each property with the monthly mail on and a
 * mandate in force gets one mailing a month (the agency's month): the month's row is inserted first,
 * so a second run, or a second instance, finds it and mails nothing. The mails are queued in the same
 * transaction: a failure leaves neither the row nor the mails.
 */
export async function runMonthlyReports(app: FastifyInstance, o: { today?: string } = {}): Promise<number[]> {
  const month = `${(o.today ?? agencyToday(app.config.timeZone)).slice(0, 7)}-01`;
  const due = await app.db.execute(sql`select s.object_id from owner_report_settings s
    where s.monthly and not exists (select 1 from owner_report_mailings m where m.object_id = s.object_id and m.month = ${month}::date) order by s.object_id`);
  const mailed: number[] = [];
  for (const r of due.rows as Row[]) {
    const objectId = Number(r.object_id);
    const done = await app.db.transaction(async (tx) => {
      const mandate = await mandateInForce(tx, objectId, app.config.timeZone);
      if (!mandate) return false;
      const owners = (await mandateOwners(tx, mandate.id)).filter((x): x is OwnerRow & { email: string } => x.email !== null);
      if (!owners.length) return false;
      const claim = await tx.execute(sql`insert into owner_report_mailings (object_id, month) values (${objectId}, ${month}::date) on conflict do nothing returning object_id`);
      if (!claim.rows.length) return false;
      const ref = await requireObject(tx, objectId);
      for (const owner of owners) await mailOwner(app, tx, objectId, ref, owner, null, true);
      await logAction(tx, { id: null, name: null }, { action: 'SendOwnerReport', entity: OWNER_REPORT_ENTITY, entityId: objectId, message: `#${ref}`, data: { objectId, month, to: owners.map((x) => x.email) } });
      return true;
    });
    if (done) mailed.push(objectId);
  }
  return mailed;
}
