import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PORTAL_API, PORTAL_KINDS } from '@crm/contract';
import { PORTAL } from '@crm/contract/resources';
import { OFFICE_ADMIN, STAFF } from '../../../plugins/auth.ts';
import { okRoute, registerCalls } from '../../../lib/calls.ts';
import { channelByReportSecret, channelBySecret, channelFeed, gzippedFeed } from './feeds.ts';
import { parseReport, recordReport } from './reports.ts';
import { createChannel, deleteChannel, listChannels, markFetched, objectChannels, setObjectIncluded, updateChannel } from './channels.service.ts';
import { rateLimit } from '../../../lib/throttle.ts';

/** Reports a channel may post in an hour, and made-up report addresses a client may try in a minute. */
export const REPORTS_PER_HOUR = 30;
const REFUSED_REPORTS_PER_MINUTE = 20;

const caller = (req: FastifyRequest) => ({ actor: req.actor });

/**
 * The property portals (issue 48, decision 083): office admins set up channels; staff see each
 * property's standing in each and choose it for a "chosen" channel; each portal fetches its feed,
 * no sign-in, at /feed/{secret}/{kind}.xml.
 */
/** How often a channel's "last fetched" is written at most (ms), by each instance. */
const FETCH_MARK_MS = 10_000;

/** Whether an Accept-Encoding header takes gzip (named without `q=0`, or `*` without it). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const parts = (Array.isArray(header) ? header.join(',') : (header ?? '')).toLowerCase().split(',');
  const q = (name: string) => {
    const part = parts.map((p) => p.trim().split(';')).find(([n]) => n!.trim() === name);
    if (!part) return undefined;
    const weight = part.slice(1).map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    return weight === undefined ? 1 : Number(weight);
  };
  const named = q('gzip') ?? q('x-gzip');
  return named !== undefined ? named > 0 : (q('*') ?? 0) > 0;
}

export const portalsRoutes = fp(
  async (app: FastifyInstance) => {
    const lastMarked = new Map<number, number>();
    const sendFeed = async (req: FastifyRequest, reply: FastifyReply) => {
      const { secret, file } = req.params as { secret: string; file: string };
      const kind = /^([a-z]+)\.xml$/.exec(file)?.[1];
      const notThere = () => reply.status(404).header('Content-Type', 'text/plain; charset=utf-8').header('Cache-Control', 'no-store').send('Not found');
      if (!kind || !(PORTAL_KINDS as readonly string[]).includes(kind) || !/^[A-Za-z0-9_-]{16,64}$/.test(secret)) return notThere();
      const channel = await channelBySecret(app, secret, kind);
      if (!channel) return notThere();
      const feed = await channelFeed(app, channel);
      const { xml } = feed;
      // The fetch's time written beside the answer, not before it: a lost write costs only the "last fetched".
      // At most once in FETCH_MARK_MS a channel and instance: fetches close together (a portal's
      // retries, the bench's 300 a second) each waited on the row's lock for the one before.
      const now = app.now();
      if (now - (lastMarked.get(channel.id) ?? Number.NEGATIVE_INFINITY) >= FETCH_MARK_MS) {
        lastMarked.set(channel.id, now);
        void markFetched(app, channel.id).catch((err: unknown) => app.log.warn({ err }, 'could not record a portal feed fetch'));
      }
      // Each fetch reaches us (its time is the channel's "last fetched"): no shared cache keeps it.
      // No property in a format whose schema wants one (Kyero): no content rather than an invalid file.
      if (!xml.length) return reply.status(204).header('Cache-Control', 'private, no-cache').header('X-Robots-Tag', 'noindex').send();
      reply.header('Content-Type', 'application/xml; charset=utf-8').header('Cache-Control', 'private, no-cache').header('X-Robots-Tag', 'noindex').header('Vary', 'Accept-Encoding');
      // A portal's fetcher that accepts gzip gets the kept gzipped copy (XML is not among the types compressed on the fly).
      if (acceptsGzip(req.headers['accept-encoding'])) return reply.header('Content-Encoding', 'gzip').send(await gzippedFeed(feed));
      return reply.send(xml);
    };
    // A portal's report of its import's errors (decision 091), at the channel's secret address: JSON, or CSV text.
    // A portal posts after each import: REPORTS_PER_HOUR a channel is many; past it (a loop, a leaked
    // address) a 429 with Retry-After, before the report is read. Made-up addresses are counted per
    // client address, so a stream of guesses gets a 429 rather than a lookup each.
    const tooMany = (reply: FastifyReply, wait: number) => reply.status(429).header('Retry-After', String(wait)).header('Content-Type', 'text/plain; charset=utf-8').header('Cache-Control', 'no-store').send('Too many requests');
    const takeReport = async (req: FastifyRequest, reply: FastifyReply) => {
      const channel = await channelByReportSecret(app, (req.params as { secret: string }).secret);
      if (!channel) {
        const wait = await rateLimit(app.db, `portal-report-refused:${req.ip}`, REFUSED_REPORTS_PER_MINUTE, 60);
        if (wait !== null) return tooMany(reply, wait);
        return reply.status(404).header('Content-Type', 'text/plain; charset=utf-8').header('Cache-Control', 'no-store').send('Not found');
      }
      const wait = await rateLimit(app.db, `portal-report:${channel.id}`, REPORTS_PER_HOUR, 3600);
      if (wait !== null) return tooMany(reply, wait);
      return { recorded: await recordReport(app, channel, parseReport(req.body)) };
    };
    // In a scope of their own: the CSV parser serves the report address only.
    await app.register(async (scope) => {
      scope.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'string', bodyLimit: 2 * 1024 * 1024 }, (_req, body, done) => done(null, body));
      registerCalls(
        scope,
        PORTAL.calls,
        PORTAL_API,
        {
          list: { access: OFFICE_ADMIN, handler: async () => ({ items: await listChannels(app) }) },
          create: { access: OFFICE_ADMIN, handler: async (req) => createChannel(app, caller(req), req.body) },
          update: { access: OFFICE_ADMIN, handler: async (req) => updateChannel(app, caller(req), req.params.id, req.body) },
          remove: okRoute(OFFICE_ADMIN, (req) => deleteChannel(app, caller(req), req.params.id, req.query.version)),
          objectStatus: { access: STAFF, handler: async (req) => ({ items: await objectChannels(app, req.params.id, req.culture) }) },
          include: {
            access: STAFF,
            handler: async (req) => {
              await setObjectIncluded(app, caller(req), req.params.id, req.body.channelId, req.body.included);
              return { items: await objectChannels(app, req.params.id, req.culture) };
            },
          },
          feed: { access: 'public', hide: true, handler: sendFeed },
          report: { access: 'public', hide: true, bodyLimit: 2 * 1024 * 1024, handler: takeReport },
        },
        { tags: ['portals'] },
      );
    });
  },
  { name: 'portals', dependencies: ['publishing'] },
);
