import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { portalFeedPath, portalReportPath, type TCulture, type TPortalChannel, type TPortalChannelCreate, type TPortalChannelUpdate, type TPortalObjectStatus } from '@crm/contract';
import type { Actor } from '../../../lib/audit.ts';
import { logAction } from '../../../lib/audit.ts';
import { toLocalDateTime } from '../../../lib/dates.ts';
import { AppError, conflict, notFound, requireVersion } from '../../../lib/errors.ts';
import { linkBase } from '../../settings/site-settings.service.ts';
import { portalListing } from './listing.ts';
import { PORTAL_MAPPINGS, channelFeed, channelProblems, type TChannelRow } from './feeds.ts';
import { photoNotes, type TPortalProblem } from './common.ts';
import { channelRefused, objectReports } from './reports.ts';

type Caller = { actor: Actor };
type Row = TChannelRow & { lastFetchedOn: Date | string | null; version: number };

const columns = sql`id, kind, name, enabled, selection, feed_secret as "feedSecret", agency_id as "agencyId", last_fetched_on as "lastFetchedOn", version`;
const at = (v: Date | string | null, tz: string) => (v === null ? null : toLocalDateTime(new Date(v), tz));

async function channelOut(app: FastifyInstance, r: Row, base: string): Promise<TPortalChannel> {
  // The feed as the portal gets it (made now if not kept): the properties in it.
  const included = r.enabled ? (await channelFeed(app, r)).count : 0;
  return {
    id: r.id,
    kind: r.kind,
    name: r.name,
    enabled: r.enabled,
    selection: r.selection,
    agencyId: r.agencyId,
    feedUrl: `${base}${portalFeedPath(r.feedSecret, r.kind)}`,
    lastFetchedOn: at(r.lastFetchedOn, app.config.timeZone),
    included,
    reportUrl: `${base}${portalReportPath(r.feedSecret)}`,
    ...(await channelRefused(app, r.id)),
    version: r.version,
  };
}

export async function listChannels(app: FastifyInstance): Promise<TPortalChannel[]> {
  const rows = (await app.db.execute(sql`select ${columns} from portal_channels order by id`)).rows as Row[];
  const base = await linkBase(app);
  const out: TPortalChannel[] = [];
  for (const r of rows) out.push(await channelOut(app, r, base));
  return out;
}

async function oneChannel(app: FastifyInstance, id: number): Promise<TPortalChannel> {
  const r = (await app.db.execute(sql`select ${columns} from portal_channels where id = ${id}`)).rows[0] as Row | undefined;
  if (!r) throw notFound();
  return channelOut(app, r, await linkBase(app));
}

const blankToNull = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);

/** A new channel with its feed secret (256 bits, in the feed's address). */
export async function createChannel(app: FastifyInstance, caller: Caller, body: TPortalChannelCreate): Promise<TPortalChannel> {
  const secret = randomBytes(24).toString('base64url');
  const id = await app.db.transaction(async (tx) => {
    const res = await tx.execute(sql`
      insert into portal_channels (kind, name, enabled, selection, feed_secret, agency_id)
      values (${body.kind}, ${body.name.trim()}, ${body.enabled ?? true}, ${body.selection ?? 'all'}, ${secret}, ${blankToNull(body.agencyId)}) returning id`);
    const newId = Number((res.rows[0] as { id: number }).id);
    await logAction(tx, caller.actor, { action: 'Create', entity: 'PortalChannel', entityId: newId, data: { kind: body.kind, name: body.name, selection: body.selection ?? 'all' } });
    return newId;
  });
  app.publicPages.clear();
  return oneChannel(app, id);
}

/** Its settings changed (version guard; 409 with the channel as it is when stale). */
export async function updateChannel(app: FastifyInstance, caller: Caller, id: number, body: TPortalChannelUpdate): Promise<TPortalChannel> {
  const version = requireVersion(body.version);
  await app.db.transaction(async (tx) => {
    const before = (await tx.execute(sql`select ${columns} from portal_channels where id = ${id} for update`)).rows[0] as Row | undefined;
    if (!before) throw notFound();
    if (before.version !== version) throw conflict(await oneChannel(app, id));
    const agencyId = blankToNull(body.agencyId);
    await tx.execute(sql`update portal_channels set name = ${body.name.trim()}, enabled = ${body.enabled}, selection = ${body.selection}, agency_id = ${agencyId}, version = version + 1 where id = ${id}`);
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    const next = { name: body.name.trim(), enabled: body.enabled, selection: body.selection, agencyId };
    for (const [k, v] of Object.entries(next)) if (before[k as keyof typeof next] !== v) changes[k] = { from: before[k as keyof typeof next], to: v };
    await logAction(tx, caller.actor, { action: 'Update', entity: 'PortalChannel', entityId: id, data: changes });
  });
  app.publicPages.clear();
  return oneChannel(app, id);
}

export async function deleteChannel(app: FastifyInstance, caller: Caller, id: number, version: number | undefined) {
  const v = requireVersion(version);
  await app.db.transaction(async (tx) => {
    const res = await tx.execute(sql`delete from portal_channels where id = ${id} and version = ${v} returning kind, name`);
    const row = res.rows[0] as { kind: string; name: string } | undefined;
    if (!row) {
      if (!(await tx.execute(sql`select 1 from portal_channels where id = ${id}`)).rows.length) throw notFound();
      throw conflict(await oneChannel(app, id));
    }
    await logAction(tx, caller.actor, { action: 'Delete', entity: 'PortalChannel', entityId: id, data: row });
  });
  app.publicPages.clear();
}

/** A problem in the reader's language (a value "@key" is a text itself: a type's or energy class's name). */
function problemText(app: FastifyInstance, culture: TCulture, p: TPortalProblem, portal: string): string {
  const params: Record<string, string | number> = { portal };
  for (const [k, v] of Object.entries(p.params ?? {})) params[k] = typeof v === 'string' && v.startsWith('@') ? app.translator.t(culture, v.slice(1)) : v;
  return app.translator.t(culture, p.key, params);
}

/** Each enabled channel as this property stands in it: selected, in the feed, or what it lacks there. */
export async function objectChannels(app: FastifyInstance, objectId: number, culture: TCulture): Promise<TPortalObjectStatus[]> {
  const o = await portalListing(app.db, objectId, (k) => app.translator.t('en', k));
  if (!o) throw notFound('objects.notFound');
  const rows = (
    await app.db.execute(sql`
    select ${columns}, exists (select 1 from portal_channel_objects pc where pc.channel_id = c.id and pc.object_id = ${objectId}) as chosen
    from portal_channels c where enabled order by id`)
  ).rows as (Row & { chosen: boolean })[];
  const reports = await objectReports(app, objectId);
  return rows.map((c) => {
    const selected = c.selection === 'all' || c.chosen;
    const missing = channelProblems(c, o).map((p) => problemText(app, culture, p, c.name));
    // What of the photos the portal will not get (a photo too small is named even where the property cannot go yet).
    const notes = photoNotes(o, PORTAL_MAPPINGS[c.kind].photos).map((p) => problemText(app, culture, p, c.name));
    return {
      channelId: c.id,
      kind: c.kind,
      name: c.name,
      selection: c.selection,
      selected,
      included: o.onSite && selected && !missing.length,
      missing,
      notes,
      reports: reports.get(c.id) ?? [],
      lastFetchedOn: at(c.lastFetchedOn, app.config.timeZone),
    };
  });
}

/** The property chosen for a "chosen" channel, or not any more; logged on the property. */
export async function setObjectIncluded(app: FastifyInstance, caller: Caller, objectId: number, channelId: number, included: boolean) {
  await app.db.transaction(async (tx) => {
    const c = (await tx.execute(sql`select selection, name from portal_channels where id = ${channelId}`)).rows[0] as { selection: string; name: string } | undefined;
    if (!c) throw notFound();
    if (!(await tx.execute(sql`select 1 from objects where id = ${objectId}`)).rows.length) throw notFound('objects.notFound');
    if (c.selection !== 'chosen') throw new AppError(409, 'portals.errors.notChosen', { name: c.name });
    const res = included
      ? await tx.execute(sql`insert into portal_channel_objects (channel_id, object_id) values (${channelId}, ${objectId}) on conflict do nothing returning object_id`)
      : await tx.execute(sql`delete from portal_channel_objects where channel_id = ${channelId} and object_id = ${objectId} returning object_id`);
    if (res.rows.length) await logAction(tx, caller.actor, { action: included ? 'PortalInclude' : 'PortalExclude', entity: 'Object', entityId: objectId, data: { channelId, channel: c.name } });
  });
  app.publicPages.clear();
}

/** The portal fetched its feed: when, shown on the settings and each property's card. */
export async function markFetched(app: FastifyInstance, channelId: number) {
  await app.db.execute(sql`update portal_channels set last_fetched_on = now() where id = ${channelId}`);
}

export { PORTAL_MAPPINGS };
