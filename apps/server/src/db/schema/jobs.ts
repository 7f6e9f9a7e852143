import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdNow, tsz } from './column-types.ts';

/**
 * Background jobs (src/jobs/runner.ts, decision 020). A job is queued, claimed by one instance
 * (FOR UPDATE SKIP LOCKED) with a lease it keeps renewing while it runs, then done, queued again
 * with a later run_at (back-off), or failed once its attempts are used up. A lease that runs out
 * (the instance died) makes the job claimable again.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    payload: jsonb('payload').notNull().default(sql`'{}'::jsonb`),
    /** queued | running | done | failed */
    state: text('state').notNull().default('queued'),
    /** At most one queued job per (name, singleton_key). */
    singletonKey: text('singleton_key'),
    runAt: tsz('run_at').notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    lockedBy: text('locked_by'),
    lockedUntil: tsz('locked_until'),
    lastError: text('last_error'),
    /** Why it failed, as a code a screen translates (JobFailure's reason); null: not known. */
    lastErrorReason: text('last_error_reason'),
    createdOn: createdNow(),
    startedOn: tsz('started_on'),
    finishedOn: tsz('finished_on'),
  },
  (t) => [
    index('jobs_queued_idx').on(t.runAt, t.id).where(sql`${t.state} = 'queued'`),
    index('jobs_running_idx').on(t.lockedUntil).where(sql`${t.state} = 'running'`),
    index('jobs_finished_idx').on(t.state, t.finishedOn).where(sql`${t.state} in ('done', 'failed')`),
    uniqueIndex('jobs_singleton_uq').on(t.name, t.singletonKey).where(sql`${t.singletonKey} is not null and ${t.state} = 'queued'`),
  ],
);

/**
 * Work one instance holds at a time across all of them (lib/work-leases.ts): a key, the instance
 * holding it, and until when; renewed while the work goes on, taken over once lapsed (its
 * instance died).
 */
export const workLeases = pgTable('work_leases', {
  key: text('key').primaryKey(),
  holder: text('holder').notNull(),
  until: tsz('until').notNull(),
});

/**
 * A stored file written before the row that names it commits (0109, decision 104): named here in
 * its own statement first; the row naming it takes it off in the same transaction. One left behind
 * (its process died in between) is removed, file then row, by the housekeeping after a grace period.
 */
export const storedFilesPending = pgTable('stored_files_pending', {
  name: text('name').primaryKey(),
  madeOn: tsz('made_on').notNull().defaultNow(),
  /** Taken by the housekeeping as an orphan (its file being removed): no row may take the name off any more. */
  sweptOn: tsz('swept_on'),
});
