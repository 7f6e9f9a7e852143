import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { getFileStorage } from './file-storage.ts';
import { pausePoint } from '../lib/pause-point.ts';

/**
 * Files written to the store before the row that names them commits (decision 104). A process
 * killed between the two would leave a file nobody names, for good. So the name is put in
 * `stored_files_pending` first, in a statement of its own that commits before the file is written;
 * the transaction that stores the naming row takes the name off again (claimPendingFiles). Names
 * left behind longer than STORED_FILE_GRACE_SECONDS are orphans, swept in two steps
 * (sweepPendingFiles): first marked swept in a short committed statement (from then on no row can
 * take the name off: its transaction fails and stores nothing), then the files removed outside any
 * transaction, then the names. A sweep that fails or dies after the mark leaves the names marked,
 * and the next sweep removes their files (again: nothing there is no error) and names. So a
 * committed row never names a file the housekeeping removed. Only names recorded here are ever
 * removed: the same on local disk and on S3, and nothing another module wrote is looked at.
 */
export class PendingFileGone extends Error {
  constructor(names: string[]) {
    super(`Stored files removed as orphans before their row committed: ${names.join(', ')}`);
  }
}

/** Names files about to be written, committed at once (before any of them is written). */
export async function notePendingFiles(db: Db, names: string[]): Promise<void> {
  if (!names.length) return;
  await db.execute(sql`insert into stored_files_pending (name) select unnest(${sql.param(names)}::text[])`);
}

/**
 * In the transaction of the row that names the files: their names taken off the pending list. One
 * gone or marked swept (the housekeeping took it as an orphan: its file is being removed) fails
 * the transaction. A sweep marking a name waits for this transaction and then skips the name; a
 * claim that comes after a committed mark finds it marked.
 */
export async function claimPendingFiles(tx: Tx, names: string[]): Promise<void> {
  if (!names.length) return;
  const r = await tx.execute(sql`delete from stored_files_pending where name = any(${sql.param(names)}::text[]) and swept_on is null returning name`);
  if (r.rows.length !== new Set(names).size) {
    const got = new Set((r.rows as { name: string }[]).map((x) => x.name));
    throw new PendingFileGone(names.filter((n) => !got.has(n)));
  }
}

/**
 * Files written for a row that was not stored after all (or whose commit answered an error though
 * it may have committed): in one transaction, the names still pending taken off and only their
 * files removed. A name a committed row took off is not returned, so its file stays; one the
 * housekeeping marked swept is left to it. A crash before this commits leaves the names, and the
 * sweep removes the files (again) and the names.
 */
export async function dropPendingFiles(app: FastifyInstance, names: string[]): Promise<void> {
  if (!names.length) return;
  const storage = getFileStorage(app.config.dataDir);
  await app.db.transaction(async (tx) => {
    const r = await tx.execute(sql`delete from stored_files_pending where name = any(${sql.param(names)}::text[]) and swept_on is null returning name`);
    for (const { name } of r.rows as { name: string }[]) await storage.delete(name);
  });
}

/**
 * Files written for a row that surely was not stored (its transaction rolled back, or the message
 * was already there): no row names them, so all are removed, then their names. A file the
 * housekeeping removed while it was still being written, and that the write then put back, goes too.
 */
export async function discardPendingFiles(app: FastifyInstance, names: string[]): Promise<void> {
  if (!names.length) return;
  const storage = getFileStorage(app.config.dataDir);
  for (const name of names) await storage.delete(name);
  await app.db.execute(sql`delete from stored_files_pending where name = any(${sql.param(names)}::text[])`);
}

/** What a module writing stored files for the rows of one transaction is handed (writeStoredFiles). */
export type StoredFilesWrite = {
  /** Names files about to be written (committed at once); a put names its file itself when it was not. */
  note(names: string[]): Promise<void>;
  /** Writes one file to the store, named pending first unless it was. */
  put(name: string, source: Readable | { path: string }): Promise<void>;
  /**
   * In the transaction of the rows that name the files: their names taken off the pending list
   * (all written so far unless `names` says which). A name the housekeeping took fails the transaction.
   */
  claim(tx: Tx, names?: string[]): Promise<void>;
  /** The transaction of those rows, as app.db.transaction: its COMMIT is watched. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
};

/**
 * The one way a module writes stored files that a row will name (decisions 104, 109): `run` writes
 * them with `put` (each name recorded pending, committed, before its file is written) and stores
 * their rows with `transaction`, calling `claim` there. Afterwards: files whose names a committed
 * transaction claimed stay; any other file written here is removed with its name (the transaction
 * rolled back, failed, stored nothing, or was never reached). When the COMMIT itself answered an
 * error (it may have committed), only the names still pending are removed with their files.
 * A process killed anywhere leaves names the housekeeping sweeps, never a file no name or row
 * names, and a committed row never names a file the sweep removed.
 */
export async function writeStoredFiles<T>(app: FastifyInstance, run: (w: StoredFilesWrite) => Promise<T>): Promise<T> {
  const storage = getFileStorage(app.config.dataDir);
  const noted = new Set<string>();
  const claimed = new Set<string>();
  // Where the rows' transaction got to: not (yet) committing, its COMMIT sent, committed.
  const at: { phase: 'before' | 'committing' | 'committed' } = { phase: 'before' };
  const w: StoredFilesWrite = {
    async note(names) {
      const fresh = [...new Set(names)].filter((n) => !noted.has(n));
      await notePendingFiles(app.db, fresh);
      for (const n of fresh) noted.add(n);
    },
    async put(name, source) {
      if (!noted.has(name)) await w.note([name]);
      await storage.put(name, source);
    },
    async claim(tx, names = [...noted]) {
      await claimPendingFiles(tx, names);
      for (const n of names) claimed.add(n);
    },
    async transaction(fn) {
      if (at.phase !== 'before') throw new Error('writeStoredFiles: one transaction only');
      const r = await app.db.transaction(async (tx) => {
        const out = await fn(tx);
        await pausePoint('files.beforeCommit');
        at.phase = 'committing';
        return out;
      });
      at.phase = 'committed';
      return r;
    },
  };
  const warn = (err: unknown) => app.log.warn({ err }, 'stored files of a row not stored could not be removed; the housekeeping will');
  try {
    const out = await run(w);
    // Committed (or never run) without naming some of them: no row names those.
    const unclaimed = [...noted].filter((n) => at.phase !== 'committed' || !claimed.has(n));
    await discardPendingFiles(app, unclaimed).catch(warn);
    return out;
  } catch (e) {
    const names = [...noted];
    if (at.phase === 'committing') await dropPendingFiles(app, names).catch(warn);
    else if (at.phase === 'committed') await discardPendingFiles(app, names.filter((n) => !claimed.has(n))).catch(warn);
    else await discardPendingFiles(app, names).catch(warn);
    throw e;
  }
}

/**
 * In the transaction that deletes the rows naming these files (decision 115): the names recorded
 * "to remove", marked swept at once, so they commit with the delete or not at all. Once committed,
 * removeNotedFiles removes the files; a process that dies first, or a store that refuses, leaves
 * the names to the housekeeping, which removes their files whatever their age (as a sweep it did
 * not finish). Nothing can claim a swept name, so no row may name these files again.
 */
export async function noteFilesToRemove(tx: Tx, names: string[]): Promise<void> {
  const unique = [...new Set(names)];
  if (!unique.length) return;
  await tx.execute(sql`insert into stored_files_pending (name, swept_on) select unnest(${sql.param(unique)}::text[]), now()
    on conflict (name) do update set swept_on = coalesce(stored_files_pending.swept_on, excluded.swept_on)`);
}

/**
 * After the deleting transaction committed: the files noted to remove are removed, then their
 * names. A file the store would not remove keeps its name, and the housekeeping tries again; the
 * delete that did happen is not answered as a failure.
 */
export async function removeNotedFiles(app: FastifyInstance, names: string[]): Promise<void> {
  const unique = [...new Set(names)];
  if (!unique.length) return;
  await pausePoint('files.afterDeleteCommit');
  const storage = getFileStorage(app.config.dataDir);
  const gone: string[] = [];
  for (const name of unique) {
    try {
      await storage.delete(name);
      gone.push(name);
    } catch (err) {
      app.log.warn({ err, name }, 'a deleted record\'s stored file could not be removed; the housekeeping will');
    }
  }
  if (!gone.length) return;
  await app.db
    .execute(sql`delete from stored_files_pending where name = any(${sql.param(gone)}::text[]) and swept_on is not null`)
    .catch((err: unknown) => app.log.warn({ err }, 'names of removed stored files left for the housekeeping'));
}

/** The housekeeping's job that removes orphaned stored files. */
export const PENDING_FILES_SWEEP_JOB = 'files.sweepPending';
const SWEEP_BATCH = 200;

/**
 * Removes the files named pending for longer than the grace period (their process died before the
 * row naming them committed), a batch at a time, in three steps: the batch's names marked swept in
 * one committed statement (skipping any a storing transaction holds; oldest first, names an earlier
 * sweep marked and did not finish included whatever their age), their files removed outside any
 * transaction, then the names. A file the store would not remove is tried again after the others.
 * Answers how many names were removed. `graceSeconds` is the setting's unless a test says otherwise.
 */
export async function sweepPendingFiles(app: FastifyInstance, graceSeconds = app.config.storedFileGraceSeconds): Promise<number> {
  const storage = getFileStorage(app.config.dataDir);
  let removed = 0;
  for (;;) {
    const rows = (
      await app.db.execute(sql`update stored_files_pending p set swept_on = coalesce(p.swept_on, now())
        where p.name in (select name from stored_files_pending
          where swept_on is not null or made_on <= now() - make_interval(secs => ${graceSeconds})
          order by made_on limit ${SWEEP_BATCH} for update skip locked)
        returning p.name`)
    ).rows as { name: string }[];
    await pausePoint('files.sweep.marked');
    const gone: string[] = [];
    const failed: string[] = [];
    for (const r of rows) {
      try {
        await storage.delete(r.name);
        gone.push(r.name);
      } catch (err) {
        // One file the store refuses to remove does not hold up the others: it is tried again at
        // the end of the queue (still marked, so never claimed meanwhile).
        failed.push(r.name);
        app.log.warn({ err, name: r.name }, 'an orphaned stored file could not be removed; tried again later');
      }
    }
    await pausePoint('files.sweep.filesRemoved');
    if (gone.length) await app.db.execute(sql`delete from stored_files_pending where name = any(${sql.param(gone)}::text[]) and swept_on is not null`);
    if (failed.length) await app.db.execute(sql`update stored_files_pending set made_on = now() where name = any(${sql.param(failed)}::text[])`);
    removed += gone.length;
    if (rows.length < SWEEP_BATCH || !gone.length) break;
  }
  if (removed) app.log.info({ removed }, 'orphaned stored files removed');
  return removed;
}
