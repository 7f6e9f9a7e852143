import type { FastifyInstance } from 'fastify';
import { and, count, eq, getTableColumns, sql } from 'drizzle-orm';
import { LinkKind, formatReferenceNumber } from '@crm/contract';
import type { Tx } from '../../db/client.ts';
import { files, objects } from '../../db/schema/index.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import type { ObjectChange } from '../objects/object-change.ts';
import { encodePublishError, publishProblems } from './publish.rules.ts';
import { refDigitsOfO } from '../../lib/reference-number.ts';

type Row = Record<string, unknown>;

/** The job that brings an object's public state in line with its publish request. */
export const PUBLISH_JOB = 'object-publish';
export type TPublishJob = { objectId: number; actor: Actor };
/** Who publishes what nobody asked for just now (the start-up sweep). */
export const SYSTEM_ACTOR: Actor = { id: null, name: 'system' };

export type PublishOutcome = { state: 'published' | 'refused' | 'unpublished' | 'unchanged' | 'gone'; objectId?: number; referenceNumber?: string; codes?: string[] };

/** Fields a person changes that do not touch what the public sees. */
const NOT_PUBLIC = new Set(['internalNotes', 'hasBanner']);

/**
 * Publishes or withdraws one object, as its publish request says, with the object's row locked:
 * requested and complete → published; requested but incomplete → not published, with a
 * publishError naming everything missing; not requested → withdrawn. Running it twice changes
 * nothing the second time; a request changed meanwhile is judged as it is when the job runs.
 */
export async function runPublish(
  db: { transaction: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T> },
  job: TPublishJob,
  hooks: { onRefused?: (tx: Tx, out: PublishOutcome) => Promise<void>; onSettled?: (tx: Tx, objectId: number) => Promise<void> } = {},
): Promise<PublishOutcome> {
  return db.transaction(async (tx) => {
    const [o] = (await tx.select().from(objects).where(eq(objects.id, job.objectId)).for('update')) as Row[];
    if (!o) return { state: 'gone' };
    const ref = formatReferenceNumber(o.referenceNumber as number);
    const log = (action: string, data: unknown) =>
      logAction(tx, job.actor, { action, entity: 'Object', entityId: job.objectId, message: `#${ref}`, data });

    if (o.publishRequested !== true) {
      if (o.published !== true && o.publishError == null) return { state: 'unchanged', referenceNumber: ref };
      await tx.update(objects).set({ published: false, publishError: null } as never).where(eq(objects.id, job.objectId));
      if (o.published === true) await log('Unpublish', { published: false });
      await hooks.onSettled?.(tx, job.objectId);
      return { state: 'unpublished', referenceNumber: ref };
    }

    const [photos] = await tx
      .select({ n: count() })
      .from(files)
      .where(and(eq(files.parentType, LinkKind.Object), eq(files.parentId, job.objectId), eq(files.type, 'image')));
    const codes = publishProblems(o, photos?.n ?? 0);
    const error = encodePublishError(codes);
    if (error) {
      if (o.publishError === error && o.published !== true) return { state: 'unchanged', referenceNumber: ref, codes };
      await tx.update(objects).set({ published: false, publishError: error } as never).where(eq(objects.id, job.objectId));
      // Taken off the site when it was on it (an enquiry from its page still open is taken then: enquiryTaken).
      await log('PublishRefused', { published: o.published === true ? { from: true, to: false } : false, missing: codes });
      const out: PublishOutcome = { state: 'refused', objectId: job.objectId, referenceNumber: ref, codes };
      await hooks.onRefused?.(tx, out);
      return out;
    }
    if (o.published === true && o.publishError == null) return { state: 'unchanged', referenceNumber: ref };
    await tx.update(objects).set({ published: true, publishError: null, lastUpdate: new Date() } as never).where(eq(objects.id, job.objectId));
    await log('Publish', { published: true });
    await hooks.onSettled?.(tx, job.objectId);
    return { state: 'published', referenceNumber: ref };
  });
}

/**
 * Whether a saved change calls for the publishing job: the request was set or withdrawn, or a
 * published (or refused) object changed what the public would see. When it does, a refusal shown
 * so far is cleared in the same transaction, so the object reads 'Publish is in progress' until
 * the job has judged it again.
 */
export async function prepareAfterChange(tx: Tx, change: ObjectChange): Promise<boolean> {
  const { before, after, changed } = change;
  const requestChanged = changed.includes('publishRequested');
  const requested = after.publishRequested === true;
  const publicChange = changed.some((k) => !NOT_PUBLIC.has(k));
  const needed = requestChanged || (requested && publicChange && (before.published === true || before.publishError != null));
  if (!needed) return false;
  if (before.publishError != null) await tx.update(objects).set({ publishError: null } as never).where(eq(objects.id, change.id));
  return true;
}

/** Queues the job for an object inside the change's transaction (it exists only if the change commits). */
export type PublishStarter = (job: TPublishJob, tx: Tx) => Promise<void>;

/** The listener of object changes that starts publishing (registered by the publishing routes). */
export function publishOnChange(start: PublishStarter) {
  return async (tx: Tx, change: ObjectChange) => {
    if (await prepareAfterChange(tx, change)) await start({ objectId: change.id, actor: change.actor }, tx);
  };
}

/** Queues the publish job of one object (one queued run per object at a time), in `tx` when given. */
export const enqueuePublish = (app: Pick<FastifyInstance, 'jobs'>, job: TPublishJob, tx?: Tx) =>
  app.jobs.enqueue(PUBLISH_JOB, job as unknown as Record<string, unknown>, { tx, singletonKey: `object:${job.objectId}` });

/**
 * Queues the job for the objects asked to be published among these, inside the caller's
 * transaction: for a change that is not an edit of the object itself (a sale of it closed or
 * reopened sets its sold flag), which the job judges again as it is.
 */
export async function queuePublishOf(app: Pick<FastifyInstance, 'jobs'>, tx: Tx, objectIds: number[], actor: Actor) {
  if (!objectIds.length) return;
  const rows = await tx.execute(sql`select id from objects where id in (${sql.join(
    objectIds.map((id) => sql`${id}`),
    sql`, `,
  )}) and (publish_requested or published)`);
  for (const { id } of rows.rows as { id: number }[]) await enqueuePublish(app, { objectId: id, actor }, tx);
}

/**
 * Every object whose request and state disagree, judged at start-up: also one still published
 * though sold (its sale closed by a version of the app whose closing did not queue the publishing).
 */
export async function objectsAwaitingPublish(db: Tx | FastifyInstance['db']) {
  const rows = await db.execute(sql`
    select id from objects
    where (publish_requested and not published and publish_error is null) or (not publish_requested and published) or (published and sold)`);
  return (rows.rows as { id: number }[]).map((r) => r.id);
}

/**
 * The demo agency: the properties it shows as published are asked to be (publishRequested), and
 * each one asked for is judged by the same rules as the publishing job, in two statements (an
 * inactive or incomplete one is refused with its publishError).
 */
export async function seedDemoPublishing(tx: Tx): Promise<{ published: number; refused: number }> {
  await tx.execute(sql`update objects set publish_requested = true where published and not publish_requested`);
  const rows = (await tx
    .select({
      ...getTableColumns(objects),
      photoCount: sql<number>`(select count(*)::int from files f where f.parent_type = ${LinkKind.Object} and f.parent_id = ${objects.id} and f.type = 'image')`,
    })
    .from(objects)
    .where(sql`publish_requested`)) as (Row & { id: number; photoCount: number })[];
  const judged = rows.map((o) => ({ id: o.id, error: encodePublishError(publishProblems(o, o.photoCount)) }));
  if (judged.length) {
    await tx.execute(sql`
      update objects o set published = v.error is null, publish_error = v.error, last_update = coalesce(o.last_update, o.modified_on)
      from jsonb_to_recordset(${JSON.stringify(judged)}::jsonb) as v(id int, error text) where o.id = v.id`);
  }
  const refused = judged.filter((j) => j.error).length;
  return { published: judged.length - refused, refused };
}

/**
 * The demo's publishing history, as the publishing job writes it: each demo property asked to be
 * published (the demo shows it as on the site) was published a day after it was entered, and one
 * refused now (made inactive since, or sold) was taken off the site (`published` true → false), so
 * an enquiry from its page, or its address opened again, is answered as for any property that was
 * on the site (enquiryTaken). Only properties with no publishing in their history yet: a demo loaded
 * before this history was written gets it once, and a property published in the app keeps its own.
 */
export async function seedDemoPublishingHistory(tx: Tx): Promise<{ published: number; refused: number }> {
  const ref = sql`'#' || ${refDigitsOfO}`;
  const [counts] = (
    await tx.execute(sql`
    with listed as (
      insert into action_log (date, action_by, action_by_name, action, entity, entity_id, message, data)
      select least(o.created_on + interval '1 day', now()), null, ${SYSTEM_ACTOR.name}, 'Publish', 'Object', o.id, ${ref}, '{"published": true}'::jsonb
      from objects o
      where o.publish_requested and not exists (select 1 from action_log l where l.entity = 'Object' and l.entity_id = o.id
        and l.action in ('Publish', 'Unpublish', 'PublishRefused'))
      returning entity_id
    ), refused as (
      insert into action_log (date, action_by, action_by_name, action, entity, entity_id, message, data)
      select greatest(least(o.modified_on, now()), least(o.created_on + interval '1 day 1 hour', now())), null, ${SYSTEM_ACTOR.name}, 'PublishRefused', 'Object', o.id, ${ref},
        jsonb_build_object('published', jsonb_build_object('from', true, 'to', false), 'missing', to_jsonb(string_to_array(substr(o.publish_error, 2), ';')))
      from objects o join listed on listed.entity_id = o.id
      where not o.published and o.publish_error like '@%'
      returning entity_id
    )
    select (select count(*)::int from listed) as published, (select count(*)::int from refused) as refused`)
  ).rows as { published: number; refused: number }[];
  return counts!;
}
