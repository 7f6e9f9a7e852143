import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { agencyToday } from '../../lib/dates.ts';
import { parsePublicRef } from './public.service.ts';

/** Robots, link previews and scripts that say what they are (and a request that names no client at all). */
const NOT_A_VISITOR = /bot|crawl|spider|slurp|scrap|preview|facebookexternalhit|whatsapp|telegram|headless|lighthouse|curl|wget|python|java\/|go-http|okhttp|axios|node-fetch|undici|libwww|httpclient/i;
/** Visitors remembered per instance and agency day; past this the memory starts afresh (bounded, never grows). */
const SEEN_MAX = 50_000;
const seenBy = new WeakMap<FastifyInstance, { day: string; seen: Set<string> }>();

/**
 * A view of a property's page on the agency's site, counted per property and month (the owner's
 * report shows them, decision 087). Counted before the page cache answers, so a kept page counts
 * too; a shared cache in front of the CRM (a CDN) answers without asking. A robot that says so is not
 * counted, and one address and browser count once a day per property (remembered by the instance): a reload or a
 * script hammering one page neither inflates the owner's figure nor writes a row per request. One
 * upsert of one row; a failure is only logged, never the visitor's error.
 */
export async function countSiteView(app: FastifyInstance, req: FastifyRequest, ref: string): Promise<void> {
  if (req.method !== 'GET') return;
  const agent = String(req.headers['user-agent'] ?? '');
  if (!agent || NOT_A_VISITOR.test(agent)) return;
  const n = parsePublicRef(ref);
  if (n === undefined) return;
  const today = agencyToday(app.config.timeZone);
  let mem = seenBy.get(app);
  if (!mem || mem.day !== today || mem.seen.size >= SEEN_MAX) seenBy.set(app, (mem = { day: today, seen: new Set() }));
  // The address and the browser: visitors behind one address (a carrier's NAT, an office) are told apart by their browsers.
  const key = `${req.ip}|${n}|${agent.slice(0, 200)}`;
  if (mem.seen.has(key)) return;
  mem.seen.add(key);
  const month = `${today.slice(0, 7)}-01`;
  await app.db
    .execute(sql`insert into object_site_views (object_id, month, views)
      select o.id, ${month}::date, 1 from objects o where o.reference_number = ${n} and o.published
      on conflict (object_id, month) do update set views = object_site_views.views + 1`)
    .then(
      () => undefined,
      (err: unknown) => app.log.warn({ err }, 'could not count a view of a property page'),
    );
}
