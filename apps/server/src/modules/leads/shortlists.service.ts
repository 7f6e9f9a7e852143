import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  SHORTLIST_LINK_DAYS,
  ZShortlistToken,
  cultureOf,
  formatReferenceNumber,
  type TCulture,
  type TShortlistAnswer,
  type TShortlistList,
  type TShortlistProperty,
  type TShortlistPublic,
  type TShortlistSend,
  type TShortlistSent,
} from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { accounts, assignments, leadObjects, leads, objects, shortlistObjects, shortlists, users } from '../../db/schema/index.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { logAction } from '../../lib/audit.ts';
import { newToken, sha256 } from '../../lib/passwords.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import type { Caller } from '../../plugins/auth.ts';
import { createAlert } from '../alerts/alerts.create.ts';
import { assignedStaff, type StaffToMail } from '../alerts/alerts.system.ts';
import { objectTitle } from '../objects/objects.sql.ts';
import { agencyIdentity, linkBase, staffFullName } from '../settings/site-settings.service.ts';
import { MAIL_LETTERS, buildMail, readAgencyIdentity } from '../../mail/mail-people.ts';
import { PUBLIC_WHERE, objectUrl, publicSelect, toPublicObject } from '../publishing/public.view.ts';
import { excerpt, money } from '../publishing/public.pages.ts';
import { ASSIGNMENT_PARENT_LEAD } from './leads.service.ts';
import type { T } from '../../lib/i18n.ts';

/**
 * Shortlists (decision 049): the agent picks some of a lead's offered objects and sends them to the
 * client, by e-mail or as a link to paste into a chat. The link is /Shortlist/{token}: a fresh
 * 256-bit token, kept only as its SHA-256 (as the expense approval's), good for one shortlist of one
 * lead for SHORTLIST_LINK_DAYS. The page shows public facts only (the public site's allow-list,
 * without the address), also for objects not on the site; the client marks each "Interested" or
 * "Not for me", which the lead's page shows and an alert tells the office.
 */


const tokenHash = (token: string) => sha256(token).toString('hex');
export const shortlistPath = (token: string) => `/Shortlist/${token}`;

/** The lead's client: name, language, first e-mail (null when none). */
async function leadClient(db: Db | Tx, leadId: number) {
  const [row] = await db
    .select({ id: leads.id, accountId: leads.accountId, name: accounts.displayName, firstName: accounts.firstName, language: accounts.language, emails: accounts.emails, erasedOn: accounts.erasedOn })
    .from(leads)
    .leftJoin(accounts, eq(accounts.id, leads.accountId))
    .where(eq(leads.id, leadId))
    .limit(1);
  if (!row) throw notFound('leads.notFound');
  const email = (row.emails ?? []).map((e) => e.trim()).find(Boolean) ?? null;
  // The greeting's name: the first name, as an agent writes to a client, else the whole name.
  const greetName = row.firstName?.trim() || row.name?.trim() || null;
  return { ...row, email, greetName };
}

/** POST /api/lead/{id}/shortlist: a new shortlist of offered objects; mailed, or its link answered to copy. */
export async function sendShortlist(app: FastifyInstance, caller: Caller, leadId: number, body: TShortlistSend, readerCulture: TCulture): Promise<TShortlistSent> {
  return makeShortlist(app, caller, leadId, body, readerCulture, null);
}

/**
 * POST /api/lead/{id}/shortlist/{shortlistId}/again: a new link for the same properties, the way the
 * old one went (by e-mail to the client's address now, or a link to copy), the old link withdrawn
 * if it still worked. The properties are those of the old list still offered to the lead and still
 * to be had; the client's answers on them are carried over. None left: refused, nothing changed.
 */
export async function sendShortlistAgain(app: FastifyInstance, caller: Caller, leadId: number, shortlistId: number, readerCulture: TCulture): Promise<TShortlistSent> {
  await leadClient(app.db, leadId);
  const [old] = await app.db.select().from(shortlists).where(and(eq(shortlists.id, shortlistId), eq(shortlists.leadId, leadId))).limit(1);
  if (!old) throw notFound('shortlist.notFound');
  const rows = await app.db
    .select({ objectId: shortlistObjects.objectId })
    .from(shortlistObjects)
    .innerJoin(leadObjects, and(eq(leadObjects.objectId, shortlistObjects.objectId), eq(leadObjects.leadId, leadId)))
    .where(eq(shortlistObjects.shortlistId, old.id))
    .orderBy(asc(shortlistObjects.position));
  const still = await properties(app.db, rows.map((r) => r.objectId), readerCulture, (key) => key, await leadServices(app.db, leadId));
  const objectIds = still.filter((p) => p.available).map((p) => p.objectId);
  if (!objectIds.length) throw badRequest('shortlist.nothingToSendAgain');
  return makeShortlist(app, caller, leadId, { objectIds, channel: old.channel as TShortlistSend['channel'] }, readerCulture, old.id);
}

async function makeShortlist(app: FastifyInstance, caller: Caller, leadId: number, body: TShortlistSend, readerCulture: TCulture, replaces: number | null): Promise<TShortlistSent> {
  const client = await leadClient(app.db, leadId);
  const ids = [...new Set(body.objectIds)];
  const offered = await app.db
    .select({ objectId: leadObjects.objectId, ref: objects.referenceNumber, title: objectTitle(undefined) })
    .from(leadObjects)
    .innerJoin(objects, eq(objects.id, leadObjects.objectId))
    .where(and(eq(leadObjects.leadId, leadId), inArray(leadObjects.objectId, ids)));
  // A client whose data was erased (GDPR) is sent nothing more, by mail or by link.
  if (client.erasedOn) throw badRequest('shortlist.erased');
  if (offered.length !== ids.length) throw badRequest('shortlist.notOffered');
  if (body.channel === 'email' && !client.email) throw badRequest('shortlist.noEmail');
  // The client's language when its account has one, else the sender's: the page and the mail speak it.
  const culture: TCulture = client.language?.trim() ? cultureOf(client.language.trim().toLowerCase()) : readerCulture;
  const token = newToken();
  const url = `${await linkBase(app)}${shortlistPath(token)}`;
  const sentOn = new Date();
  const expiresOn = new Date(sentOn.getTime() + SHORTLIST_LINK_DAYS * 24 * 3600 * 1000);
  const email = body.channel === 'email' ? client.email : null;
  await app.db.transaction(async (tx) => {
    // Sending again: the old link stops working (if it still did) and its answers come along.
    const carried = replaces === null ? new Map<number, { answer: string | null; answeredOn: Date | null }>() : await replaceOld(tx, caller, leadId, replaces);
    const [row] = await tx
      .insert(shortlists)
      .values({ tokenHash: tokenHash(token), leadId, sentOn, sentBy: caller.user.id, sentByName: caller.actor.name, channel: body.channel, email, language: culture, expiresOn })
      .returning({ id: shortlists.id });
    await tx.insert(shortlistObjects).values(ids.map((objectId, position) => ({ shortlistId: row!.id, objectId, position, answer: carried.get(objectId)?.answer ?? null, answeredOn: carried.get(objectId)?.answeredOn ?? null })));
    await logAction(tx, caller.actor, {
      action: 'SendShortlist',
      entity: 'Lead',
      entityId: leadId,
      message: email ?? 'link',
      data: { shortlistId: row!.id, channel: body.channel, email, objects: ids.length, objectIds: ids, language: culture, linkId: tokenHash(token).slice(0, 12), ...(replaces === null ? {} : { replaces }) },
    });
  });
  // The mail goes once the shortlist is committed (as the approval's), signed by the agent and the agency.
  if (email) {
    const t: T = (key, params) => app.translator.t(culture, key, params);
    const lines = await mailLines(app.db, ids, leadId, culture, t);
    const { mail } = await buildMail(app, {
      to: email,
      accountId: client.accountId,
      culture,
      fallback: culture,
      agentUserId: caller.user.id,
      letter: MAIL_LETTERS.shortlist({ link: url, days: SHORTLIST_LINK_DAYS, lines }),
    });
    await app.mailer.send(mail);
  }
  const t: T = (key, params) => app.translator.t(readerCulture, key, params);
  return { url, email, message: email ? t('shortlist.sentByEmail', { email }) : t('shortlist.linkMade') };
}

/** The mail's list: "• title — price" per object, in the shortlist's language. */
async function mailLines(db: Db | Tx, ids: number[], leadId: number, culture: TCulture, t: T) {
  const props = await properties(db, ids, culture, t, await leadServices(db, leadId));
  return props.map((p) => `${p.title || `#${p.ref}`}${p.price ? ` — ${priceText(p.price, t)}` : ''}`);
}

const priceText = (p: NonNullable<TShortlistProperty['price']>, t: T) => (p.service === 'sale' ? money(p.price) : `${money(p.price)} ${t(`publishing.per.${p.service}`)}`);

/** The services the lead asks for, in the order its price is looked for. */
async function leadServices(db: Db | Tx, leadId: number): Promise<('sale' | 'rent' | 'shortRent')[]> {
  const rows = await db.execute(sql`select for_purchase as p, for_rent as r, for_short_rent as s from leads where id = ${leadId}`);
  const r = rows.rows[0] as { p: boolean | null; r: boolean | null; s: boolean | null } | undefined;
  const out: ('sale' | 'rent' | 'shortRent')[] = [];
  if (r?.p) out.push('sale');
  if (r?.r) out.push('rent');
  if (r?.s) out.push('shortRent');
  return out;
}

/**
 * The objects as the client's page shows them: built from the public site's allow-listed columns
 * (never the owner, notes, keys, commission or address), whether published or not.
 */
async function properties(db: Db | Tx, ids: number[], culture: TCulture, t: T, services: ('sale' | 'rent' | 'shortRent')[]) {
  if (!ids.length) return [];
  const rows = await db.execute(sql`
    select ${publicSelect(culture)}, (${PUBLIC_WHERE}) as "isPublic", (o.active and not coalesce(o.sold, false)) as "onMarket"
    from objects o left join locations pl on pl.id = o.location_id
    where o.id in ${sql`(${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`}`);
  const byId = new Map((rows.rows as Record<string, unknown>[]).map((r) => [Number(r.id), r]));
  return ids
    .map((id) => byId.get(id))
    .filter((r): r is Record<string, unknown> => !!r)
    .map((r) => {
      const o = toPublicObject(r, culture, t);
      const available = stillAvailable(r, services);
      const price = available ? (services.map((s) => o.prices.find((p) => p.service === s)).find(Boolean) ?? o.prices[0] ?? null) : null;
      return {
        objectId: Number(r.id),
        ref: o.ref,
        title: o.title,
        type: o.type,
        place: o.place,
        price,
        bedrooms: r.bedrooms === null || r.bedrooms === undefined ? null : Number(r.bedrooms),
        area: r.area === null || r.area === undefined ? null : Number(r.area),
        description: excerpt(o.description, 320),
        hasPhoto: o.photos.length > 0,
        publicUrl: available && r.isPublic === true ? objectUrl(culture, o.ref) : null,
        available,
      };
    });
}

/**
 * Whether a property on a shortlist can still be had: not when it is made inactive (off the market)
 * or sold (a closed sale); not when it is let now (the rented flag or a current long-let tenant)
 * and not free from a later day, unless the client may buy it (the lead asks to buy, or asks for
 * nothing, and the property is for sale: a let flat can be sold with its tenant). A deleted property
 * has left the shortlist already (its rows are deleted with it).
 */
function stillAvailable(r: Record<string, unknown>, services: ('sale' | 'rent' | 'shortRent')[]) {
  if (r.onMarket !== true) return false;
  if (r.letNow !== true || r.availableLater === true) return true;
  const mayBuy = services.length === 0 || services.includes('sale');
  return mayBuy && r.forSale === true;
}

/**
 * The shortlist a token names: 404 when none, 410 when the office withdrew it or its time is over
 * (nothing else is said).
 */
async function shortlistOf(db: Db | Tx, token: string) {
  const [row] = await db.select().from(shortlists).where(eq(shortlists.tokenHash, tokenHash(token))).limit(1);
  if (!row) throw new AppError(404, 'shortlist.linkInvalid');
  if (row.withdrawnOn) throw new AppError(410, 'shortlist.linkWithdrawn');
  if (row.expiresOn.getTime() <= Date.now()) throw new AppError(410, 'shortlist.linkExpired');
  return row;
}

/** GET /api/shortlist/{token}: the client's page; the first opening is noted. */
export async function viewShortlist(app: FastifyInstance, token: string, culture: TCulture): Promise<TShortlistPublic> {
  const s = await shortlistOf(app.db, token);
  if (!s.openedOn) await app.db.update(shortlists).set({ openedOn: new Date() }).where(and(eq(shortlists.id, s.id), isNull(shortlists.openedOn)));
  return publicAnswer(app, s, token, culture);
}

/**
 * The page's answer, its texts (titles, types, places) in the reader's language: the page first
 * switches a visitor who has not chosen one to the shortlist's (`language`), and a visitor who chose
 * another reads the properties in that one too.
 */
async function publicAnswer(app: FastifyInstance, s: typeof shortlists.$inferSelect, token: string, culture: TCulture): Promise<TShortlistPublic> {
  const t: T = (key, params) => app.translator.t(culture, key, params);
  const items = await app.db
    .select({ objectId: shortlistObjects.objectId, answer: shortlistObjects.answer })
    .from(shortlistObjects)
    .where(eq(shortlistObjects.shortlistId, s.id))
    .orderBy(asc(shortlistObjects.position));
  const answers = new Map(items.map((i) => [i.objectId, i.answer as TShortlistAnswer | null]));
  const [props, site, client] = await Promise.all([
    properties(app.db, items.map((i) => i.objectId), culture, t, await leadServices(app.db, s.leadId)),
    agencyIdentity(app),
    leadClient(app.db, s.leadId),
  ]);
  const agentName = await staffFullName(app.db, s.sentBy);
  return {
    language: cultureOf(s.language),
    clientName: client.greetName,
    agentName,
    expiresOn: toLocalDateTime(s.expiresOn, app.config.timeZone)!,
    agency: { name: site.nameIn(culture, t('publishing.site.name')), logo: site.logoPath, address: site.address, phone: site.phone, email: site.email },
    items: props.map(({ hasPhoto, ...p }) => ({
      ...p,
      photo: hasPhoto ? `/api/shortlist/${token}/photo/${p.objectId}` : null,
      answer: answers.get(p.objectId) ?? null,
    })),
  };
}

/** POST /api/shortlist/{token}/answer: the client's answer on one of its objects (changeable; null takes it back). */
export async function answerShortlist(app: FastifyInstance, req: FastifyRequest, token: string, objectId: number, answer: TShortlistAnswer | null) {
  const culture = req.culture;
  const s = await shortlistOf(app.db, token);
  const client = await leadClient(app.db, s.leadId);
  await app.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ answer: shortlistObjects.answer, ref: objects.referenceNumber })
      .from(shortlistObjects)
      .innerJoin(objects, eq(objects.id, shortlistObjects.objectId))
      .where(and(eq(shortlistObjects.shortlistId, s.id), eq(shortlistObjects.objectId, objectId)))
      .for('update')
      .limit(1);
    if (!before) throw notFound('shortlist.notOnList');
    const [p] = await properties(tx, [objectId], culture, (key) => key, await leadServices(tx, s.leadId));
    if (!p?.available) throw new AppError(409, 'shortlist.noLongerAvailable');
    if (before.answer === answer) return;
    await tx
      .update(shortlistObjects)
      .set({ answer, answeredOn: answer ? new Date() : null })
      .where(and(eq(shortlistObjects.shortlistId, s.id), eq(shortlistObjects.objectId, objectId)));
    if (!s.openedOn) await tx.update(shortlists).set({ openedOn: new Date() }).where(and(eq(shortlists.id, s.id), isNull(shortlists.openedOn)));
    const ref = formatReferenceNumber(before.ref);
    await logAction(tx, { id: null, name: client.name?.trim() || null }, {
      action: 'ShortlistAnswer',
      entity: 'Lead',
      entityId: s.leadId,
      message: `#${ref}: ${answer ?? '-'}`,
      data: { shortlistId: s.id, objectId, answer, before: before.answer, ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '').slice(0, 300) },
    });
    if (answer) {
      // The office is told as by a website enquiry (alerts are the office's, with a link to the
      // lead); the agents the lead is assigned to, else the sender, are named in it.
      const agents = await tx
        .select({ name: accounts.displayName })
        .from(assignments)
        .innerJoin(accounts, eq(accounts.id, assignments.accountId))
        .where(and(eq(assignments.parent, ASSIGNMENT_PARENT_LEAD), eq(assignments.parentId, s.leadId)))
        .orderBy(asc(assignments.id));
      const agent = agents.map((a) => a.name).filter(Boolean).join(', ') || s.sentByName || '—';
      const messageKey = answer === 'interested' ? 'alerts.msg.shortlistInterested' : 'alerts.msg.shortlistNotForMe';
      const params = { ref, name: client.name?.trim() || `#${s.leadId}`, lead: s.leadId, agent };
      const alertId = await createAlert(tx, {
        source: 'Shortlist',
        kind: 'shortlist',
        messageKey,
        params,
        content: app.translator.t('en', messageKey, params),
        entity: 'Lead',
        entityId: s.leadId,
        // Once per shortlist, object and answer: a client changing its mind back and forth is told twice at most.
        dedupKey: `shortlist:${s.id}:${objectId}:${answer}`,
      });
      // The alert is the office's; the lead's agents (else the one who sent it) are mailed it too.
      if (alertId !== null) {
        const base = await linkBase(app);
        const agency = await readAgencyIdentity(app);
        for (const to of await agentsToTell(tx, s.leadId, s.sentBy)) {
          const { mail } = await buildMail(app, {
            db: tx,
            agency,
            to: to.email,
            // Greeted by name (in Greek the vocative) when the staff member's account has one.
            accountId: to.accountId,
            culture: cultureOf(to.language),
            fallback: 'en',
            letter: MAIL_LETTERS.alert({
              subjectKey: `alerts.mail.${answer === 'interested' ? 'shortlistInterestedSubject' : 'shortlistNotForMeSubject'}`,
              messageKey,
              params,
              links: [
                { url: `${base}/Leads/View/${s.leadId}`, labelKey: 'mail.alert.openLead' },
                { url: `${base}/Alerts/${alertId}`, labelKey: 'mail.alert.openAlert' },
              ],
            }),
          });
          await app.mailer.send(mail, { tx });
        }
      }
    }
  });
  return publicAnswer(app, await shortlistOf(app.db, token), token, culture);
}

/**
 * Who is mailed a client's answer: the employees the lead is assigned to who have an address, else
 * the staff user who sent the shortlist (while that sign-in is not disabled), else nobody (the
 * alert is still the office's).
 */
async function agentsToTell(tx: Tx, leadId: number, sentBy: number | null): Promise<StaffToMail[]> {
  const assigned = (await assignedStaff(tx, [leadId], ASSIGNMENT_PARENT_LEAD)).get(leadId) ?? [];
  if (assigned.length || sentBy === null) return assigned;
  const [u] = await tx.select({ email: users.email, language: users.language, accountId: users.accountId }).from(users).where(and(eq(users.id, sentBy), eq(users.disabled, false))).limit(1);
  return u?.email ? [{ email: u.email, language: u.language, accountId: u.accountId }] : [];
}

/** The main photo of an object of the shortlist (its screen-size copy), or undefined. */
export async function shortlistPhoto(app: FastifyInstance, token: string, objectId: number) {
  const s = await shortlistOf(app.db, token);
  const rows = await app.db.execute(sql`
    select f.web_name as name from shortlist_objects so
    join files f on f.parent_type = 1 and f.parent_id = so.object_id and f.type = 'image' and f.web_name is not null
    where so.shortlist_id = ${s.id} and so.object_id = ${objectId}
    order by f.sort_order, f.id limit 1`);
  return (rows.rows[0] as { name: string } | undefined)?.name;
}

/** GET /api/lead/{id}/shortlists: what was sent to the lead's client, newest first, with the answers. */
export async function leadShortlists(app: FastifyInstance, leadId: number, culture: TCulture): Promise<TShortlistList> {
  await leadClient(app.db, leadId);
  const list = await app.db.select().from(shortlists).where(eq(shortlists.leadId, leadId)).orderBy(desc(shortlists.sentOn), desc(shortlists.id)).limit(50);
  if (!list.length) return { items: [] };
  const items = await app.db
    .select({
      shortlistId: shortlistObjects.shortlistId,
      objectId: shortlistObjects.objectId,
      ref: objects.referenceNumber,
      title: objectTitle(culture),
      answer: shortlistObjects.answer,
      answeredOn: shortlistObjects.answeredOn,
    })
    .from(shortlistObjects)
    .innerJoin(objects, eq(objects.id, shortlistObjects.objectId))
    .where(inArray(shortlistObjects.shortlistId, list.map((s) => s.id)))
    .orderBy(asc(shortlistObjects.position));
  const tz = app.config.timeZone;
  return {
    items: list.map((s) => ({
      id: s.id,
      sentOn: toLocalDateTime(s.sentOn, tz)!,
      sentBy: s.sentByName,
      channel: s.channel as 'email' | 'link',
      email: s.email,
      language: s.language,
      expiresOn: toLocalDateTime(s.expiresOn, tz)!,
      expired: s.expiresOn.getTime() <= Date.now(),
      openedOn: toLocalDateTime(s.openedOn, tz),
      withdrawnOn: toLocalDateTime(s.withdrawnOn, tz),
      withdrawnBy: s.withdrawnOn ? s.withdrawnByName : null,
      items: items
        .filter((i) => i.shortlistId === s.id)
        .map((i) => ({
          objectId: i.objectId,
          objectReferenceNumber: formatReferenceNumber(i.ref),
          title: i.title,
          answer: (i.answer as TShortlistAnswer | null) ?? null,
          answeredOn: toLocalDateTime(i.answeredOn, tz),
        })),
    })),
  };
}

/** Sending again: the old shortlist locked, withdrawn when its link still worked (logged), its answers answered. */
async function replaceOld(tx: Tx, caller: Caller, leadId: number, shortlistId: number) {
  const [s] = await tx.select().from(shortlists).where(and(eq(shortlists.id, shortlistId), eq(shortlists.leadId, leadId))).for('update').limit(1);
  if (!s) throw notFound('shortlist.notFound');
  if (!s.withdrawnOn && s.expiresOn.getTime() > Date.now()) await withdrawLocked(tx, caller, leadId, s);
  const rows = await tx.select({ objectId: shortlistObjects.objectId, answer: shortlistObjects.answer, answeredOn: shortlistObjects.answeredOn }).from(shortlistObjects).where(eq(shortlistObjects.shortlistId, s.id));
  return new Map(rows.map((r) => [r.objectId, { answer: r.answer, answeredOn: r.answeredOn }]));
}

async function withdrawLocked(tx: Tx, caller: Caller, leadId: number, s: typeof shortlists.$inferSelect) {
  await tx.update(shortlists).set({ withdrawnOn: new Date(), withdrawnBy: caller.user.id, withdrawnByName: caller.actor.name }).where(eq(shortlists.id, s.id));
  await logAction(tx, caller.actor, {
    action: 'WithdrawShortlist',
    entity: 'Lead',
    entityId: leadId,
    message: s.email ?? 'link',
    data: { shortlistId: s.id, channel: s.channel, email: s.email, sentOn: s.sentOn.toISOString(), expired: s.expiresOn.getTime() <= Date.now(), linkId: s.tokenHash.slice(0, 12) },
  });
}

/**
 * POST /api/lead/{id}/shortlist/{shortlistId}/withdraw: the link stops working at once (its page
 * says it was withdrawn, answers are refused); the answers given stay on the lead. Withdrawing one
 * already withdrawn changes and logs nothing.
 */
export async function withdrawShortlist(app: FastifyInstance, caller: Caller, leadId: number, shortlistId: number, culture: TCulture): Promise<TShortlistList> {
  await leadClient(app.db, leadId);
  await app.db.transaction(async (tx) => {
    const [s] = await tx
      .select()
      .from(shortlists)
      .where(and(eq(shortlists.id, shortlistId), eq(shortlists.leadId, leadId)))
      .for('update')
      .limit(1);
    if (!s) throw notFound('shortlist.notFound');
    if (s.withdrawnOn) return;
    await withdrawLocked(tx, caller, leadId, s);
  });
  return leadShortlists(app, leadId, culture);
}

/** What a link preview (Viber, WhatsApp, Messenger) shows of /Shortlist/{token}; `status` is the page's. */
export type ShortlistPreview =
  | { status: 200; language: TCulture; title: string; description: string; siteName: string; image: string | null }
  | { status: 404 | 410 };

/**
 * The preview of a link, in the shortlist's language: "3 properties chosen for you by {agency}",
 * the titles and prices, the first photo (an absolute address from PUBLIC_URL, served through the
 * token). A preview is fetched by the chat's server, not the client: the opening is not noted.
 */
export async function shortlistPreview(app: FastifyInstance, token: string): Promise<ShortlistPreview> {
  if (!ZShortlistToken.safeParse(token).success) return { status: 404 };
  let s: typeof shortlists.$inferSelect;
  try {
    s = await shortlistOf(app.db, token);
  } catch (e) {
    if (e instanceof AppError) return { status: e.status === 410 ? 410 : 404 };
    throw e;
  }
  const culture = cultureOf(s.language);
  const t: T = (key, params) => app.translator.t(culture, key, params);
  const ids = (await app.db.select({ objectId: shortlistObjects.objectId }).from(shortlistObjects).where(eq(shortlistObjects.shortlistId, s.id)).orderBy(asc(shortlistObjects.position))).map((i) => i.objectId);
  const props = await properties(app.db, ids, culture, t, await leadServices(app.db, s.leadId));
  const identity = await agencyIdentity(app);
  const siteName = identity.nameIn(culture, t('publishing.site.name'));
  const first = props.find((p) => p.hasPhoto);
  return {
    status: 200,
    language: culture,
    title: props.length ? t('shortlist.preview.title', { count: props.length, agency: siteName }) : t('shortlist.page.heading'),
    description: excerpt(props.map((p) => `${p.title || `#${p.ref}`}${p.price ? ` — ${priceText(p.price, t)}` : ''}`).join(' · '), 200),
    siteName,
    image: first ? `${identity.publicUrl}/api/shortlist/${token}/photo/${first.objectId}` : null,
  };
}
