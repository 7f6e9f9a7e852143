import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { getFileStorage } from './file-storage.ts';

/**
 * Files written to the store before the row that names them commits (decision 104). A process
 * killed between the two would leave a file nobody names, for good. So the name is put in
 * `stored_files_pending` first, in a statement of its own that commits before the file is written;
 * the transaction that stores the naming row takes the name off again (claimPendingFiles), and a
 * name the housekeeping already took makes that transaction fail, so a committed row never names a
 * file the housekeeping removed. Names left behind longer than STORED_FILE_GRACE_SECONDS are
 * orphans: sweepPendingFiles removes the file, then the name. Only names recorded here are ever
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
 * already gone (the housekeeping took it as an orphan and removed the file) fails the transaction.
 * A sweep holding a name waits for this transaction, and one that comes after finds nothing.
 */
export async function claimPendingFiles(tx: Tx, names: string[]): Promise<void> {
  if (!names.length) return;
  const r = await tx.execute(sql`delete from stored_files_pending where name = any(${sql.param(names)}::text[]) returning name`);
  if (r.rows.length !== new Set(names).size) {
    const got = new Set((r.rows as { name: string }[]).map((x) => x.name));
    throw new PendingFileGone(names.filter((n) => !got.has(n)));
  }
}

/** Files written for a row that was not stored after all: removed, then their names (a crash between leaves the name, so the sweep finishes it). */
export async function dropPendingFiles(app: FastifyInstance, names: string[]): Promise<void> {
  if (!names.length) return;
  const storage = getFileStorage(app.config.dataDir);
  for (const n of names) await storage.delete(n);
  await app.db.execute(sql`delete from stored_files_pending where name = any(${sql.param(names)}::text[])`);
}

/** The housekeeping's job that removes orphaned stored files. */
export const PENDING_FILES_SWEEP_JOB = 'files.sweepPending';
const SWEEP_BATCH = 200;

/**
 * Removes the files named pending for longer than the grace period (their process died before the
 * row naming them committed), a batch at a time: each batch's names locked (skipping any a storing
 * transaction holds), the files removed, then the names, in that transaction. A crash midway
 * leaves the names, and the next sweep removes the same files again (nothing there: no error).
 * Answers how many were removed.
 */
export async function sweepPendingFiles(app: FastifyInstance): Promise<number> {
  const storage = getFileStorage(app.config.dataDir);
  const grace = app.config.storedFileGraceSeconds;
  let removed = 0;
  for (;;) {
    const n = await app.db.transaction(async (tx) => {
      const rows = (
        await tx.execute(sql`select name from stored_files_pending where made_on <= now() - make_interval(secs => ${grace})
          order by made_on limit ${SWEEP_BATCH} for update skip locked`)
      ).rows as { name: string }[];
      for (const r of rows) await storage.delete(r.name);
      if (rows.length) await tx.execute(sql`delete from stored_files_pending where name = any(${sql.param(rows.map((r) => r.name))}::text[])`);
      return rows.length;
    });
    removed += n;
    if (n < SWEEP_BATCH) break;
  }
  if (removed) app.log.info({ removed }, 'orphaned stored files removed');
  return removed;
}
