import type { FastifyInstance } from 'fastify';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { TPortalKind } from '@crm/contract';
import { agencyIdentity } from '../../settings/site-settings.service.ts';
import { channelListings, type TPortalListing } from './listing.ts';
import type { TFeedContext, TPortalMapping, TPortalProblem } from './common.ts';
import { kyero } from './kyero.ts';
import { indomio } from './indomio.ts';
import { spitogatos } from './spitogatos.ts';
import { xe } from './xe.ts';

const gzip = promisify(zlib.gzip);

/** Each portal's mapping, by the channel's kind. */
export const PORTAL_MAPPINGS: Readonly<Record<TPortalKind, TPortalMapping>> = { kyero, indomio, spitogatos, xe };

export type TChannelRow = { id: number; kind: TPortalKind; name: string; enabled: boolean; selection: 'all' | 'chosen'; feedSecret: string; agencyId: string | null };

/** What the channel needs and the property lacks (empty: ready). */
export const channelProblems = (channel: TChannelRow, o: TPortalListing): TPortalProblem[] => PORTAL_MAPPINGS[channel.kind].check(o, channel);

/** The cache key of a channel's feed, kept with the public pages (public.cache.ts: emptied when a published property changes). */
export const feedCacheKey = (channelId: number) => `portal-feed ${channelId}`;

/**
 * A channel's whole feed: every property on the website it sends that passes the portal's checks,
 * written by the portal's mapping; the others are left out (their reasons are on each property's
 * publishing card). Kept with the public pages until a published property or the channel changes,
 * with the number of properties in it (the settings show it). An empty `xml`: nothing to send in a
 * format that has no empty feed (Kyero).
 */
export type TChannelFeed = { xml: Buffer; count: number; gzipped?: Promise<Buffer> };

/**
 * The kept feed gzipped, made once per feed kept (in the thread pool, not on the event loop) and
 * kept with it: a fetch that accepts gzip is sent a tenth of the bytes (4.5 MB of XML for 5,000
 * properties), and 8 at once no longer wait on each other's transfer.
 */
export const gzippedFeed = (feed: TChannelFeed): Promise<Buffer> =>
  // A failed compression is not kept: the next fetch tries again rather than meeting the same error.
  (feed.gzipped ??= gzip(feed.xml, { level: 6 }).catch((e: unknown) => {
    feed.gzipped = undefined;
    throw e;
  }));

export async function channelFeed(app: FastifyInstance, channel: TChannelRow): Promise<TChannelFeed> {
  const key = feedCacheKey(channel.id);
  const hit = app.publicPages.get(key) as TChannelFeed | undefined;
  if (hit && Buffer.isBuffer(hit.xml)) return hit;
  const since = app.publicPages.mark();
  const a = await agencyIdentity(app);
  const tEn = (k: string) => app.translator.t('en', k);
  const ctx: TFeedContext = {
    base: a.publicUrl,
    channelName: channel.name,
    agencyId: channel.agencyId,
    agencyName: a.nameIn('en', app.translator.t('en', 'publishing.site.name')),
    agencyEmail: a.email ?? null,
    agencyPhone: a.phone ?? null,
    generated: new Date(app.now()),
    tEn,
  };
  const mapping = PORTAL_MAPPINGS[channel.kind];
  const parts = [mapping.open(ctx)];
  for await (const o of channelListings(app.db, channel, tEn)) if (!mapping.check(o, channel).length) parts.push(mapping.item(o, ctx));
  parts.push(mapping.close(ctx));
  // Kept as the bytes sent: each fetch sends them as they are. No property, in a format that wants
  // one at least: no bytes (the feed's address answers 204 rather than a file its schema refuses).
  const count = parts.length - 2;
  const feed: TChannelFeed = { xml: count || mapping.emptyAllowed ? Buffer.from(parts.join(''), 'utf8') : Buffer.alloc(0), count };
  app.publicPages.set(key, feed, since);
  return feed;
}

/** The enabled channel whose feed this address is, or undefined (a wrong secret, kind or a channel switched off). */
export async function channelBySecret(app: FastifyInstance, secret: string, kind: string): Promise<TChannelRow | undefined> {
  const res = await app.db.execute(sql`
    select id, kind, name, enabled, selection, feed_secret as "feedSecret", agency_id as "agencyId"
    from portal_channels where feed_secret = ${secret} and kind = ${kind} and enabled`);
  return res.rows[0] as TChannelRow | undefined;
}

/** The enabled channel whose report address this is (its feed's secret), or undefined. */
export async function channelByReportSecret(app: FastifyInstance, secret: string): Promise<{ id: number; name: string; selection: string } | undefined> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(secret)) return undefined;
  const res = await app.db.execute(sql`select id, name, selection from portal_channels where feed_secret = ${secret} and enabled`);
  return res.rows[0] as { id: number; name: string; selection: string } | undefined;
}
