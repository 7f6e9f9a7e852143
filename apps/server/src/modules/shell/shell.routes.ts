import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { SHELL_API, SEARCH_MAX_HITS, ZNotModified, formatReferenceNumber, type TCulture, type TSearchHit } from '@crm/contract';
import { SHELL } from '@crm/contract/resources';
import { accounts, actionLog, localization } from '../../db/schema/index.ts';
import { officesPluralsFirst } from '../../lib/plural-texts.ts';
import { SIGNED_IN, STAFF } from '../../plugins/auth.ts';
import { registerCalls } from '../../lib/calls.ts';
import { toLocalDateTime, zonePeriods } from '../../lib/dates.ts';
import { appVariant } from '../../lib/variant.ts';
import { keptCount } from '../../lib/row-counts.ts';
import { PICTURE_MIMES } from '../files/pictures.ts';

/** A source of global-search hits; each entity module registers one. */
export type SearchProvider = (q: {
  text: string;
  limit: number;
  branchId: number | null;
  culture: TCulture;
  /** Work several providers need (the accounts whose names match), done once per search: the first caller's `make` runs, the others share its answer. */
  shared: <T>(key: string, make: () => Promise<T>) => Promise<T>;
}) => Promise<TSearchHit[]>;

/**
 * The hits shown (at most `max`), fairly from every provider: each kind gets an equal share first,
 * what one kind leaves unused goes to the others; each kind's hits stay together, in the
 * providers' order (accounts, objects, leads). Taking the first `max` in order let twenty accounts
 * named Papadopoulos hide every property and lead.
 */
/** Text that reads as a property's reference number: up to 4 digits, or with # or "ref" in front. */
const REFERENCE_TYPED = /^(?:(?:#|ref)\s*\d{1,10}|\d{1,4})$/i;

export function shareHits(found: TSearchHit[][], max: number): TSearchHit[] {
  const take = found.map(() => 0);
  let left = max;
  for (let round = 0; left > 0; round++) {
    const wanting = found.map((hits, i) => (hits.length > take[i]! ? i : -1)).filter((i) => i >= 0);
    if (!wanting.length) break;
    const share = Math.max(1, Math.floor(left / wanting.length));
    for (const i of wanting) {
      const n = Math.min(share, found[i]!.length - take[i]!, left);
      take[i] = take[i]! + n;
      left -= n;
      if (left === 0) break;
    }
  }
  return found.flatMap((hits, i) => hits.slice(0, take[i]));
}

/**
 * The agency zone's offsets for /api/config, from a day ago to 400 days ahead: worked out once a day
 * (per zone), not on each start of every browser.
 */
const clocks = new Map<string, { day: number; clock: { until: number; periods: { from: number; offsetMinutes: number }[] } }>();
export function agencyClock(timeZone: string, now = Date.now()) {
  const DAY = 86_400_000;
  const day = Math.floor(now / DAY);
  let kept = clocks.get(timeZone);
  if (!kept || kept.day !== day) {
    const until = (day + 401) * DAY;
    kept = { day, clock: { until, periods: zonePeriods(timeZone, (day - 1) * DAY, until) } };
    clocks.set(timeZone, kept);
  }
  return kept.clock;
}

export const shellRoutes = async (app: FastifyInstance) => {
  // The texts change only by seeding (start-up) or import, so each answer is built once per
  // version of the table and revalidated by ETag: an unchanged answer is a 304 with no body.
  const built = new Map<string, { version: string; etag: string; body: string }>();

  registerCalls(
    app,
    SHELL.calls,
    SHELL_API,
    {
      health: {
        access: 'public',
        handler: async () => {
          await app.db.execute(sql`select 1`);
          return { status: 'ok' as const, database: 'ok' as const, version: app.appVersion };
        },
      },
      localization: {
        access: 'public',
        answers: { 304: ZNotModified },
        handler: async (req, reply) => {
          const culture = req.query.culture;
          const [v] = await app.db
            .select({ n: sql<number>`count(*)::int`, at: sql<string>`max(${localization.modifiedOn})::text` })
            .from(localization);
          const version = `${v?.n ?? 0}/${v?.at ?? ''}`;
          const scope = culture ?? 'all';
          let answer = built.get(scope);
          if (answer?.version !== version) {
            const rows = await app.db
              .select({ key: localization.key, text: localization.text, culture: localization.culture, custom: localization.custom })
              .from(localization)
              .where(culture ? inArray(localization.culture, [...new Set([culture, 'en'])]) : undefined)
              .orderBy(localization.key, localization.culture);
            // One language: its own text of each key, English where it has none (rows come in key order).
            let list = officesPluralsFirst(rows).map(({ key, text, culture }) => ({ key, text, culture }));
            if (culture) {
              const byKey = new Map<string, (typeof list)[number]>();
              for (const r of list) if (!byKey.has(r.key) || r.culture === culture) byKey.set(r.key, r);
              list = [...byKey.values()];
            }
            const body = JSON.stringify(list);
            answer = { version, body, etag: `W/"${scope}-${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
            built.set(scope, answer);
          }
          reply.header('ETag', answer.etag).header('Cache-Control', 'no-cache').header('Vary', 'Accept-Encoding');
          const asked = req.headers['if-none-match'];
          if (asked && asked.split(',').some((t) => t.trim().replace(/^W\//, '') === answer.etag.replace(/^W\//, ''))) return reply.code(304).send(undefined);
          // Already serialized (and validated once, by the test of this route): sent as it is.
          return reply.type('application/json; charset=utf-8').serializer((s: unknown) => s as string).send(answer.body);
        },
      },
      config: {
        access: 'public',
        handler: async (req) => ({
          variant: appVariant(app.config, req),
          timeZone: app.config.timeZone,
          clock: agencyClock(app.config.timeZone),
          map: { ...app.config.map },
          upload: {
            fileMaxBytes: app.config.uploadMaxBytes,
            requestMaxBytes: app.config.upload.requestMaxBytes,
            maxFiles: app.config.upload.maxFiles,
            photoTypes: [...PICTURE_MIMES],
          },
        }),
      },
      unreadCount: {
        access: SIGNED_IN,
        tags: ['alerts'],
        handler: async (req) => {
          // Branch users have no alerts screen; their badge stays empty.
          if (req.user!.branchId !== null || !req.user!.roles.some((r) => r === 'admin' || r === 'employee')) return 0;
          return keptCount(app.db, 'alerts.unread');
        },
      },
      search: {
        access: STAFF,
        tags: ['search'],
        handler: async (req) => {
          const text = req.query.searchStr.trim();
          if (!text) return { items: [] };
          const memo = new Map<string, Promise<unknown>>();
          const shared = <T>(key: string, make: () => Promise<T>): Promise<T> => {
            if (!memo.has(key)) memo.set(key, make());
            return memo.get(key) as Promise<T>;
          };
          const found = await Promise.all(app.searchProviders.map((p) => p({ text, limit: SEARCH_MAX_HITS, branchId: req.user!.branchId, culture: req.culture, shared })));
          const items = shareHits(found, SEARCH_MAX_HITS);
          // A reference number typed ("17", "#0017"): the properties first, before the phone numbers
          // that happen to hold the same digits.
          return { items: REFERENCE_TYPED.test(text) ? [...items.filter((h) => h.entity === 'Object'), ...items.filter((h) => h.entity !== 'Object')] : items };
        },
      },
      home: {
        access: SIGNED_IN,
        handler: async (req) => {
          const u = req.user!;
          const person =
            u.accountId == null
              ? Promise.resolve(null)
              : app.db
                  .select({ name: sql<string | null>`coalesce(nullif(trim(${accounts.firstName}), ''), ${accounts.displayName})` })
                  .from(accounts)
                  .where(eq(accounts.id, u.accountId))
                  .then((rows) => rows[0]?.name ?? null);
          const recent = await app.db
            .select({
              id: actionLog.id,
              date: actionLog.date,
              action: actionLog.action,
              entity: actionLog.entity,
              entityId: actionLog.entityId,
              message: actionLog.message,
              ref: sql<number | null>`case when ${actionLog.entity} = 'Object' then (select o.reference_number from objects o where o.id = ${actionLog.entityId}) end`,
              // A deleted alert's text key and values, so the page reads it in the reader's language; a mailbox's name (its message), the agency's words.
              data: sql<unknown>`case when ${actionLog.entity} = 'Alert' then ${actionLog.data} when ${actionLog.entity} = 'Mailbox' then jsonb_build_object('name', ${actionLog.message}) end`,
            })
            .from(actionLog)
            // What the user did to the agency's records, not to their own sign-in: signing in and out, the
            // language kept at sign-in, a new password, a list downloaded (the action log keeps those).
            .where(and(eq(actionLog.actionBy, u.id), notInArray(actionLog.action, ['Login', 'Logout', 'Download']), sql`not (${actionLog.entity} = 'User' and ${actionLog.entityId} = ${u.id})`))
            .orderBy(desc(actionLog.date), desc(actionLog.id))
            .limit(10);
          const unread =
            u.branchId === null && u.roles.some((r) => r === 'admin' || r === 'employee')
              ? await keptCount(app.db, 'alerts.unread')
              : 0;
          return {
            username: u.username,
            name: await person,
            unreadAlerts: unread,
            recent: recent.map(({ ref, ...r }) => ({ ...r, date: toLocalDateTime(r.date, app.config.timeZone)!, reference: ref == null ? null : formatReferenceNumber(ref) })),
          };
        },
      },
    },
    { tags: ['platform'] },
  );
};
