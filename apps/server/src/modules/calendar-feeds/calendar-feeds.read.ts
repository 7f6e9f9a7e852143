import type { FastifyInstance } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import { ASSIGNMENT_PARENTS, LinkKind, type TCulture } from '@crm/contract';
import { locationText } from '../locations/locations.service.ts';
import { objectTitle } from '../objects/objects.sql.ts';
import { refDigitsOfO } from '../../lib/reference-number.ts';

/** At most this many viewings, and as many activities, in one feed (the window is bounded too). */
export const FEED_MAX_EACH = 3000;
/** A viewing whose every property was called off (VIEWING_RESULTS: 6 cancelled) is left out. */
const CANCELLED = 6;

type FeedObject = { ref: string; title: string | null; address: string | null };
export type FeedViewing = { id: number; at: Date; version: number; createdOn: Date; modifiedOn: Date; client: string | null; phone: string | null; agents: string | null; objects: FeedObject[] };
export type FeedActivity = { id: number; at: Date; version: number; createdOn: Date; modifiedOn: Date; description: string; client: string | null; phone: string | null; object: FeedObject | null; link: [number, number] | null };
type Window = { from: Date; till: Date };
type Row = Record<string, unknown>;

const date = (v: unknown) => new Date(v as string);
const firstPhone = (account: string) => sql.raw(`(select p from unnest(${account}.phones) p where btrim(p) <> '' limit 1)`);
const address = (culture: TCulture) => sql`nullif(concat_ws(', ', nullif(btrim(o.address), ''), ${locationText(sql`o.location_id`, culture)}), '')`;

/**
 * The viewings chosen by `pick` (a statement answering their ids, bounded and in order), with their
 * client, the client's phone, their agents and their properties: each part read once for all of them.
 */
async function viewingsOf(app: FastifyInstance, pick: SQL, culture: TCulture): Promise<FeedViewing[]> {
  const res = await app.db.execute(sql`
    with v as (${pick}),
    who as (
      select s.parent_id as id, string_agg(x.display_name, ', ' order by x.display_name) as agents
      from assignments s join accounts x on x.id = s.account_id
      where s.parent = ${ASSIGNMENT_PARENTS.viewing} and s.parent_id = any(array(select id from v)) group by s.parent_id),
    objs as (
      select vo.viewing_id as id, json_agg(json_build_object('ref', ${refDigitsOfO}, 'title', ${objectTitle(culture, 'o')}, 'address', ${address(culture)}) order by vo.position) as objects
      from viewing_objects vo join objects o on o.id = vo.object_id
      where vo.viewing_id = any(array(select id from v)) group by vo.viewing_id)
    select v.id, v.date_of_viewing, v.version, v.created_on, v.modified_on, a.display_name as client, ${firstPhone('a')} as phone, who.agents, objs.objects
    from v left join leads l on l.id = v.demand_id left join accounts a on a.id = l.account_id
      left join who on who.id = v.id left join objs on objs.id = v.id
    order by v.date_of_viewing, v.id`);
  return (res.rows as Row[]).map((r) => ({
    id: Number(r.id),
    at: date(r.date_of_viewing),
    version: Number(r.version),
    createdOn: date(r.created_on),
    modifiedOn: date(r.modified_on),
    client: (r.client as string | null) ?? null,
    phone: (r.phone as string | null) ?? null,
    agents: (r.agents as string | null) ?? null,
    objects: (r.objects as FeedObject[] | null) ?? [],
  }));
}

const viewingColumns = sql`v.id, v.date_of_viewing, v.version, v.created_on, v.modified_on, v.demand_id`;
const inWindow = (w: Window) => sql`v.date_of_viewing >= ${w.from.toISOString()}::timestamptz and v.date_of_viewing < ${w.till.toISOString()}::timestamptz and v.result is distinct from ${CANCELLED}`;

/** Every agent's viewings in the window (the viewings' date index), for the office-wide feed. */
export async function readOfficeViewings(app: FastifyInstance, w: Window, culture: TCulture) {
  const pick = sql`select ${viewingColumns} from viewings v where ${inWindow(w)} order by v.date_of_viewing, v.id limit ${FEED_MAX_EACH}`;
  return { viewings: await viewingsOf(app, pick, culture), activities: [] as FeedActivity[] };
}

/**
 * One person's viewings (those they are assigned to: the assignments' account index, then each
 * viewing by its key) and their planned activities (to-dos not done, with a date: the open
 * activities' index on assignee and date), in the window.
 */
export async function readOwnEvents(app: FastifyInstance, accountId: number | null, w: Window, culture: TCulture) {
  if (accountId === null) return { viewings: [] as FeedViewing[], activities: [] as FeedActivity[] };
  const pick = sql`
    select ${viewingColumns} from viewings v
    where v.id in (select s.parent_id from assignments s where s.account_id = ${accountId} and s.parent = ${ASSIGNMENT_PARENTS.viewing}) and ${inWindow(w)}
    order by v.date_of_viewing, v.id limit ${FEED_MAX_EACH}`;
  const [viewings, acts] = await Promise.all([
    viewingsOf(app, pick, culture),
    app.db.execute(sql`
      with ac as (
        select ac.id, ac.date, ac.version, ac.created_on, ac.modified_on, ac.description from activities ac
        where ac.done = false and ac.assigned_to = ${accountId}
          and ac.date >= ${w.from.toISOString()}::timestamptz and ac.date < ${w.till.toISOString()}::timestamptz
        order by ac.date, ac.id limit ${FEED_MAX_EACH})
      select ac.*, first.link, client.name as client, client.phone, obj.object
      from ac
      -- Its first link in the calendar's order: by position, then entity and id (two links may share a position).
      left join lateral (
        select array[l.entity::int, l.entity_id] as link from activity_links l where l.activity_id = ac.id order by l.position, l.entity, l.entity_id limit 1) first on true
      -- The client: an account it is linked to, else the client of a lead it is linked to.
      left join lateral (
        select a.display_name as name, ${firstPhone('a')} as phone
        from activity_links l
          left join leads ld on l.entity = ${LinkKind.Demand} and ld.id = l.entity_id
          join accounts a on a.id = case when l.entity = ${LinkKind.Account} then l.entity_id else ld.account_id end
        where l.activity_id = ac.id and l.entity in (${LinkKind.Account}, ${LinkKind.Demand})
        order by (l.entity = ${LinkKind.Account}) desc, l.position, l.entity, l.entity_id limit 1) client on true
      left join lateral (
        select json_build_object('ref', ${refDigitsOfO}, 'title', ${objectTitle(culture, 'o')}, 'address', ${address(culture)}) as object
        from activity_links l join objects o on o.id = l.entity_id
        where l.activity_id = ac.id and l.entity = ${LinkKind.Object} order by l.position, l.entity_id limit 1) obj on true
      order by ac.date, ac.id`),
  ]);
  const activities = (acts.rows as Row[]).map((r) => ({
    id: Number(r.id),
    at: date(r.date),
    version: Number(r.version),
    createdOn: date(r.created_on),
    modifiedOn: date(r.modified_on),
    description: String(r.description ?? '').trim(),
    client: (r.client as string | null) ?? null,
    phone: (r.phone as string | null) ?? null,
    object: (r.object as FeedObject | null) ?? null,
    link: (r.link as [number, number] | null) ?? null,
  }));
  return { viewings, activities };
}
