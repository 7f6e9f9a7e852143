import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import QRCode from 'qrcode';
import { CALENDAR_FEED_DAYS_AHEAD, CALENDAR_FEED_DAYS_BACK, type TCalendarFeed, type TCalendarFeedCreated, type TCalendarFeedScope, type TCulture } from '@crm/contract';
import type { Actor } from '../../lib/audit.ts';
import { logAction } from '../../lib/audit.ts';
import { sha256 } from '../../lib/passwords.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { recordScreenPath } from '../../lib/record-links.ts';
import { linkBase } from '../settings/site-settings.service.ts';
import { buildIcs, type FeedEvent } from './ics.ts';
import { readOwnEvents, readOfficeViewings } from './calendar-feeds.read.ts';

type Caller = { userId: number; actor: Actor; culture: TCulture };

/** The secret in the address: 256 random bits, base64url (43 characters). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const DAY = 86_400_000;

type FeedRow = { hint: string; created_on: Date | string; last_used_on: Date | string | null };
const asDate = (v: Date | string | null) => (v === null ? null : new Date(v));

function feedOut(scope: TCalendarFeedScope, r: FeedRow | undefined, tz: string): TCalendarFeed {
  if (!r) return { scope, active: false, hint: null, createdOn: null, lastUsedOn: null };
  return { scope, active: true, hint: r.hint, createdOn: toLocalDateTime(asDate(r.created_on), tz), lastUsedOn: toLocalDateTime(asDate(r.last_used_on), tz) };
}

async function activeFeed(app: FastifyInstance, userId: number, scope: TCalendarFeedScope): Promise<TCalendarFeed> {
  const res = await app.db.execute(sql`select hint, created_on, last_used_on from calendar_feeds where user_id = ${userId} and scope = ${scope} and revoked_on is null`);
  return feedOut(scope, res.rows[0] as FeedRow | undefined, app.config.timeZone);
}

/** The reader's own address and, for an office administrator, the office-wide one. */
export async function listFeeds(app: FastifyInstance, userId: number, officeAdmin: boolean) {
  return { own: await activeFeed(app, userId, 'own'), office: officeAdmin ? await activeFeed(app, userId, 'office') : null };
}

/** A new address in place of the old one (which stops working at once): answered this once, with its QR code. */
export async function createFeed(app: FastifyInstance, caller: Caller, scope: TCalendarFeedScope): Promise<TCalendarFeedCreated> {
  const token = randomBytes(32).toString('base64url');
  const hint = `${token.slice(0, 6)}…`;
  await app.db.transaction(async (tx) => {
    const old = await tx.execute(sql`update calendar_feeds set revoked_on = now() where user_id = ${caller.userId} and scope = ${scope} and revoked_on is null returning id`);
    const res = await tx.execute(sql`insert into calendar_feeds (user_id, scope, hint, culture, token_hash) values (${caller.userId}, ${scope}, ${hint}, ${caller.culture}, ${sha256(token)}) returning id`);
    const id = Number((res.rows[0] as { id: number }).id);
    await logAction(tx, caller.actor, { action: 'Create', entity: 'CalendarFeed', entityId: id, data: { scope, hint, replaced: old.rows.length > 0 } });
  });
  const url = `${await linkBase(app)}/calendar/${token}.ics`;
  const qrSvg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, width: 256 });
  return { feed: await activeFeed(app, caller.userId, scope), url, qrSvg };
}

/** Revoked at once: the address answers 404 from the next fetch on. Revoking none changes nothing. */
export async function revokeFeed(app: FastifyInstance, caller: Caller, scope: TCalendarFeedScope): Promise<TCalendarFeed> {
  await app.db.transaction(async (tx) => {
    const res = await tx.execute(sql`update calendar_feeds set revoked_on = now() where user_id = ${caller.userId} and scope = ${scope} and revoked_on is null returning id, hint`);
    const row = res.rows[0] as { id: number; hint: string } | undefined;
    if (row) await logAction(tx, caller.actor, { action: 'Revoke', entity: 'CalendarFeed', entityId: Number(row.id), data: { scope, hint: row.hint } });
  });
  return activeFeed(app, caller.userId, scope);
}

type Owner = { id: number; scope: TCalendarFeedScope; user_id: number; account_id: number | null; culture: string; name: string };

/**
 * The feed a secret opens, or null: unknown, revoked, its sign-in switched off, or (the office-wide
 * one) its owner no longer an office administrator. The last fetch is noted at most once a minute.
 */
export async function feedOwner(app: FastifyInstance, token: string): Promise<Owner | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const res = await app.db.execute(sql`
    select f.id, f.scope, f.user_id, u.account_id, f.culture, coalesce(a.display_name, u.username) as name
    from calendar_feeds f join users u on u.id = f.user_id and not u.disabled and (u.roles && array['admin', 'employee']::text[])
      left join accounts a on a.id = u.account_id
    where f.token_hash = ${sha256(token)} and f.revoked_on is null
      and (f.scope = 'own' or ('admin' = any(u.roles) and u.branch_id is null))`);
  const owner = res.rows[0] as Owner | undefined;
  if (!owner) return null;
  await app.db.execute(sql`update calendar_feeds set last_used_on = now() where id = ${owner.id} and (last_used_on is null or last_used_on < now() - interval '1 minute')`);
  return owner;
}

const cultureOf = (culture: string): TCulture => (culture === 'en' || culture === 'ru' ? culture : 'el');

/** The calendar of a feed: its window's viewings (and, for one's own, planned activities) as iCalendar text. */
export async function feedIcs(app: FastifyInstance, owner: Owner): Promise<string> {
  const tz = app.config.timeZone;
  const culture = cultureOf(owner.culture);
  const t = (key: string, params?: Record<string, string | number>) => app.translator.t(culture, key, params);
  const base = await linkBase(app);
  const host = new URL(base).host;
  const now = Date.now();
  const window = { from: new Date(now - CALENDAR_FEED_DAYS_BACK * DAY), till: new Date(now + CALENDAR_FEED_DAYS_AHEAD * DAY) };
  const read = owner.scope === 'office' ? await readOfficeViewings(app, window, culture) : await readOwnEvents(app, owner.account_id, window, culture);
  const lines = (...xs: (string | null | false | undefined)[]) => xs.filter(Boolean).join('\n');
  const events: FeedEvent[] = [];
  for (const v of read.viewings) {
    const props = v.objects.map((o) => `#${o.ref}${o.title ? ` ${o.title}` : ''}`);
    events.push({
      uid: `viewing-${v.id}@${host}`,
      start: toLocalDateTime(v.at, tz)!,
      minutes: 60,
      summary: [t('viewings.calendarTitle'), props.join(', '), v.client].filter(Boolean).join(' · '),
      location: v.objects.map((o) => o.address).filter(Boolean).join(' / ') || null,
      description: lines(
        v.client && t('icalfeed.event.client', { name: v.client }),
        v.phone && t('icalfeed.event.phone', { phone: v.phone }),
        props.length > 0 && t('icalfeed.event.properties', { list: props.join(', ') }),
        owner.scope === 'office' && v.agents && t('icalfeed.event.agents', { names: v.agents }),
        t('icalfeed.event.open', { url: `${base}/Viewing/${v.id}` }),
      ),
      url: `${base}/Viewing/${v.id}`,
      sequence: v.version,
      lastModified: v.modifiedOn,
      created: v.createdOn,
    });
  }
  for (const a of read.activities) {
    const subject = a.description.split('\n')[0]!.slice(0, 120) || t('icalfeed.event.toDo');
    const url = `${base}${recordScreenPath(a.link) ?? '/CRM'}`;
    events.push({
      uid: `activity-${a.id}@${host}`,
      start: toLocalDateTime(a.at, tz)!,
      minutes: 30,
      summary: [subject, a.object ? `#${a.object.ref}${a.object.title ? ` ${a.object.title}` : ''}` : null, a.client].filter(Boolean).join(' · '),
      location: a.object?.address ?? null,
      description: lines(a.description, a.client && t('icalfeed.event.client', { name: a.client }), a.phone && t('icalfeed.event.phone', { phone: a.phone }), t('icalfeed.event.open', { url })),
      url,
      sequence: a.version,
      lastModified: a.modifiedOn,
      created: a.createdOn,
    });
  }
  const name = owner.scope === 'office' ? t('icalfeed.calendarName.office') : t('icalfeed.calendarName.own', { name: owner.name });
  return buildIcs({ name, zone: tz, prodHost: host, from: window.from.getTime() - DAY, till: window.till.getTime() + DAY, events });
}

