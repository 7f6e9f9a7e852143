import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { CALENDAR_FEED_API, CLIENT_MESSAGE_API } from '@crm/contract';
import { CALENDAR_FEED, CLIENT_MESSAGE } from '@crm/contract/resources';
import { OFFICE_ADMIN, STAFF } from '../../plugins/auth.ts';
import { registerCalls } from '../../lib/calls.ts';
import { rateLimit } from '../../lib/throttle.ts';
import { createFeed, feedIcs, feedOwner, listFeeds, revokeFeed } from './calendar-feeds.service.ts';
import { clientMessage } from './client-message.ts';

/** Who makes or revokes an address, and the language they read the CRM in (the feed's texts keep it). */
const caller = (req: FastifyRequest) => ({ userId: req.user!.id, actor: req.actor, culture: req.culture });
const isOfficeAdmin = (req: FastifyRequest) => req.user!.roles.includes('admin') && req.user!.branchId == null;

/** Fetches of one address a minute (a phone asks a few times an hour; Outlook or Google less often). */
const FETCHES_PER_MINUTE = 30;
/** Unknown addresses one client may try a minute before it is told to wait. */
const REFUSED_PER_MINUTE = 30;

/**
 * Calendar addresses (issue 46, decision 081): each staff member makes, makes anew and revokes
 * their own; office administrators the office-wide one. The calendar is served at
 * /calendar/<secret>.ics with no sign-in: the secret is the key, kept only as its SHA-256.
 */
export const calendarFeedsRoutes = fp(
  async (app: FastifyInstance) => {
    const notThere = (reply: FastifyReply) => reply.status(404).header('Content-Type', 'text/plain; charset=utf-8').header('Cache-Control', 'no-store').send('Not found');
    const tooMany = (reply: FastifyReply, wait: number) => reply.status(429).header('Retry-After', String(wait)).header('Content-Type', 'text/plain; charset=utf-8').send('Too many requests');

    const sendIcs = async (req: FastifyRequest, reply: FastifyReply) => {
      const { file } = req.params as { file: string };
      const token = /^(.+)\.ics$/i.exec(file)?.[1];
      const owner = token ? await feedOwner(app, token) : null;
      if (!owner) {
        // Made-up addresses are counted per client address: a stream of guesses gets a 429, not a lookup each.
        const wait = await rateLimit(app.db, `calfeed-refused:${req.ip}`, REFUSED_PER_MINUTE, 60);
        return wait !== null ? tooMany(reply, wait) : notThere(reply);
      }
      const wait = await rateLimit(app.db, `calfeed:${owner.id}`, FETCHES_PER_MINUTE, 60);
      if (wait !== null) return tooMany(reply, wait);
      const body = await feedIcs(app, owner);
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      reply
        .header('Content-Type', 'text/calendar; charset=utf-8')
        .header('Content-Disposition', 'inline; filename="calendar.ics"')
        // Private: no shared cache keeps it (a revoked address is gone at once); a calendar that has it asks with its ETag.
        .header('Cache-Control', 'private, no-cache')
        .header('ETag', etag)
        .header('X-Robots-Tag', 'noindex, nofollow')
        .header('Referrer-Policy', 'no-referrer');
      if (req.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.send(body);
    };

    registerCalls(
      app,
      CALENDAR_FEED.calls,
      CALENDAR_FEED_API,
      {
        list: { access: STAFF, handler: async (req) => listFeeds(app, req.user!.id, isOfficeAdmin(req)) },
        createOwn: { access: STAFF, handler: async (req) => createFeed(app, caller(req), 'own') },
        revokeOwn: { access: STAFF, handler: async (req) => revokeFeed(app, caller(req), 'own') },
        createOffice: { access: OFFICE_ADMIN, handler: async (req) => createFeed(app, caller(req), 'office') },
        revokeOffice: { access: OFFICE_ADMIN, handler: async (req) => revokeFeed(app, caller(req), 'office') },
        // The calendar itself: not a call of the API (left out of its document).
        ics: { access: 'public', hide: true, handler: sendIcs },
      },
      { tags: ['calendarFeeds'] },
    );
    // A ready text to a client (Viber, WhatsApp, SMS from the phone's apps); the sending is logged by the activity call.
    registerCalls(
      app,
      CLIENT_MESSAGE.calls,
      CLIENT_MESSAGE_API,
      { text: { access: STAFF, handler: async (req) => clientMessage(app, req.user!.id, req.params.id, req.query.viewingId) } },
      { tags: ['accounts'] },
    );
  },
  { name: 'calendar-feeds' },
);
