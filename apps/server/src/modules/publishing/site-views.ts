import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { agencyToday } from '../../lib/dates.ts';
import { parsePublicRef } from './public.service.ts';

/**
 * A view of a property's page on the agency's site, counted per property and month (the owner's
 * report shows them, decision 087). Counted before the page cache answers, so a kept page counts
 * too; a shared cache in front of the CRM (a CDN) answers without asking, and robots count as
 * visitors. One upsert of one row; a failure is only logged, never the visitor's error.
 */
export async function countSiteView(app: FastifyInstance, ref: string): Promise<void> {
  const n = parsePublicRef(ref);
  if (n === undefined) return;
  const month = `${agencyToday(app.config.timeZone).slice(0, 7)}-01`;
  await app.db
    .execute(sql`insert into object_site_views (object_id, month, views)
      select o.id, ${month}::date, 1 from objects o where o.reference_number = ${n} and o.published
      on conflict (object_id, month) do update set views = object_site_views.views + 1`)
    .then(
      () => undefined,
      (err: unknown) => app.log.warn({ err }, 'could not count a view of a property page'),
    );
}
