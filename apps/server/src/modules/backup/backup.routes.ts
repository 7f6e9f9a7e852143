import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { BACKUP_API, LOG_MESSAGE, ZBackupFailureReason } from '@crm/contract';
import { BACKUP } from '@crm/contract/resources';
import { OFFICE_ADMIN } from '../../plugins/auth.ts';
import { registerCalls } from '../../lib/calls.ts';
import { logAction } from '../../lib/audit.ts';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform, pipeline } from 'node:stream';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { toLocalDateTime, zoneOffsetMs } from '../../lib/dates.ts';
import type { Tx, Db } from '../../db/client.ts';
import { JobFailure } from '../../jobs/runner.ts';
import { takeLease } from '../../lib/work-leases.ts';
import { answerLease, BACKUP_DOWNLOAD_HOLD_SECONDS, contentDisposition, releaseWithAnswer } from '../files/files.service.ts';
import { getFileStorage, type BackupArea } from '../../storage/file-storage.ts';
import { backupFailureReason, createBackup, listKeptBackups, type BackupFile, type BackupResult } from './backup.ts';

export const BACKUP_JOB = 'backup.run';
/** The singleton keys: the next daily run, and one asked for by an administrator. */
const DAILY = 'daily';
const NOW = 'now';

/**
 * The next moment after `after` when the agency's clock shows `at` (HH:MM). On the day the clocks
 * skip that time (03:00-03:59 on the last Sunday of March in Athens), the moment an hour later.
 */
export function nextDailyRun(after: Date, at: string, timeZone: string): Date {
  const local = toLocalDateTime(after, timeZone)!;
  const [h, m] = at.split(':').map(Number) as [number, number];
  for (let day = 0; day < 3; day++) {
    const d = new Date(`${local.slice(0, 10)}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + day);
    const wall = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), h, m);
    const moment = wall - zoneOffsetMs(wall - zoneOffsetMs(wall, timeZone), timeZone);
    if (moment > after.getTime()) return new Date(moment);
  }
  throw new Error('no next run');
}

/** Queues the next daily backup (one at a time; a queued one at a later time is brought forward). */
async function scheduleDaily(app: FastifyInstance, tx: Tx | Db = app.db) {
  const next = nextDailyRun(new Date(app.now()), app.config.backup.at, app.config.timeZone);
  await tx.execute(sql`update jobs set run_at = ${next.toISOString()}::timestamptz
    where name = ${BACKUP_JOB} and singleton_key = ${DAILY} and state = 'queued' and run_at > ${next.toISOString()}::timestamptz`);
  await app.jobs.enqueue(BACKUP_JOB, {}, { singletonKey: DAILY, runAt: next, tx });
}

/**
 * One backup with the app's database and settings (on a connection of its own). A failure is a
 * JobFailure with its reason (backupFailureReason), the technical message kept as it was.
 */
export async function backupNow(app: FastifyInstance, signal?: AbortSignal): Promise<BackupResult> {
  try {
    return await makeBackup(app, signal);
  } catch (e) {
    if (e instanceof JobFailure) throw e;
    throw new JobFailure(e instanceof Error ? e.message || e.name : String(e), backupFailureReason(e), { cause: e });
  }
}

/** Where the app's backups are kept: the file store's backups/ (STORAGE=s3, decision 093), else undefined (BACKUP_DIR). */
export function backupAreaOf(app: FastifyInstance): BackupArea | undefined {
  return getFileStorage(app.config.dataDir).backups?.();
}

/** A kept backup as a stream and its size, from the store or the backups folder; undefined when there is none. */
async function openBackup(app: FastifyInstance, name: string): Promise<{ body: Readable; size: number } | undefined> {
  const area = backupAreaOf(app);
  if (area) return area.get(name);
  try {
    const handle = await fs.promises.open(path.join(app.config.backup.dir, name), 'r');
    const st = await handle.stat();
    if (!st.isFile()) {
      await handle.close();
      return undefined;
    }
    return { body: handle.createReadStream(), size: st.size };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'EISDIR') return undefined;
    throw e;
  }
}

async function makeBackup(app: FastifyInstance, signal?: AbortSignal): Promise<BackupResult> {
  const pool = (app.db as unknown as { $client: pg.Pool }).$client;
  const client = await pool.connect();
  try {
    return await createBackup({
      client,
      dataDir: app.config.dataDir,
      dir: app.config.backup.dir,
      keep: app.config.backup.keep,
      timeZone: app.config.timeZone,
      appVersion: app.appVersion,
      signal,
      area: backupAreaOf(app),
    });
  } finally {
    client.release();
  }
}

/**
 * Backups (decision 043): a durable job makes one every day at BACKUP_AT on the agency's clock
 * (and whenever an administrator asks); a run that fails is retried, and one that fails for good
 * is an alert like any job's, and the next day's is queued all the same.
 */
export const backupRoutes = fp(
  async (root: FastifyInstance) => {
    const app = root;
    app.jobs.register<{ manual?: boolean }>(
      BACKUP_JOB,
      async (payload, ctx) => {
        const b = await backupNow(app, ctx.signal);
        ctx.log.info({ file: b.file, size: b.size, ms: b.ms }, 'backup made');
        if (!payload.manual && app.config.backup.daily) await scheduleDaily(app);
      },
      { maxAttempts: 3, backoffSeconds: 600 },
    );
    app.jobs.onFinalFailure(async (job, _error, tx) => {
      if (job.name === BACKUP_JOB && job.singletonKey === DAILY && app.config.backup.daily) await scheduleDaily(app, tx);
    });
    if (app.config.backup.daily) app.addHook('onReady', async () => scheduleDaily(app));

    registerCalls(
      app,
      BACKUP.calls,
      BACKUP_API,
      {
        list: {
          access: OFFICE_ADMIN,
          handler: async () => {
            const tz = app.config.timeZone;
            const { daily, keep, at } = app.config.backup;
            const area = backupAreaOf(app);
            const dir = area?.where ?? app.config.backup.dir;
            let items: BackupFile[] = [];
            try {
              items = await listKeptBackups(dir, area);
            } catch (e) {
              // A folder or store that cannot be read: the card still shows why the backups fail.
              app.log.warn({ err: e, dir }, 'the backups could not be listed');
            }
            const res = await app.db.execute(sql`
              select
                (select min(run_at) from jobs where name = ${BACKUP_JOB} and singleton_key = ${DAILY} and state = 'queued') as next,
                exists (select 1 from jobs where name = ${BACKUP_JOB} and (state = 'running' or (state = 'queued' and run_at <= now()))) as pending,
                (select json_build_object('at', started_on, 'error', last_error, 'reason', last_error_reason, 'retry', case when state = 'queued' then run_at end) from jobs
                  where name = ${BACKUP_JOB} and last_error is not null and started_on is not null order by started_on desc limit 1) as failure`);
            const r = res.rows[0] as { next: Date | string | null; pending: boolean; failure: { at: string; error: string; reason: string | null; retry: string | null } | null };
            const failedAt = r.failure ? new Date(r.failure.at) : null;
            return {
              daily,
              at,
              keep,
              dir,
              inStore: !!area,
              next: daily && r.next ? toLocalDateTime(new Date(r.next), tz) : null,
              pending: r.pending,
              items: items.map((b) => ({ name: b.name, size: b.size, at: toLocalDateTime(b.at, tz)! })),
              failure: r.failure && failedAt && (!items[0] || failedAt > items[0].at) ? { at: toLocalDateTime(failedAt, tz)!, reason: ZBackupFailureReason.catch('other').parse(r.failure.reason), error: r.failure.error, retryAt: r.failure.retry ? toLocalDateTime(new Date(r.failure.retry), tz)! : null } : null,
            };
          },
        },
        start: {
          access: OFFICE_ADMIN,
          handler: async (req) => {
            await app.db.transaction(async (tx) => {
              // One at a time: a second backup beside a running one would need the disk space twice,
              // and a few of them rotate the older good backups out.
              const running = await tx.execute(sql`select 1 from jobs where name = ${BACKUP_JOB} and state = 'running' limit 1`);
              if (running.rows.length) throw badRequest('backup.alreadyRunning');
              // A failed one waiting for its next try is tried now instead.
              const id =
                (await app.jobs.enqueue(BACKUP_JOB, { manual: true }, { singletonKey: NOW, tx })) ??
                ((await tx.execute(sql`update jobs set run_at = now() where name = ${BACKUP_JOB} and singleton_key = ${NOW} and state = 'queued' and run_at > now() returning id`)).rows[0] as { id: number } | undefined)?.id ??
                null;
              if (id === null) throw badRequest('backup.alreadyQueued');
              await logAction(tx, req.actor, { action: 'Create', entity: 'Job', entityId: id, message: LOG_MESSAGE.backupAsked });
            });
            app.jobs.kick();
            return { ok: true as const };
          },
        },
        download: {
          access: OFFICE_ADMIN,
          config: { fileCookie: true },
          file: 'A backup as it is kept (crm-*.tar.gz: the database and the stored files), streamed from the backups folder or the file store',
          handler: async (req, reply) => {
            const { name } = req.params;
            // One download of a backup at a time for a sign-in, whichever instance serves it.
            const lease = await takeLease(app.db, `backup-download:${req.user?.id ?? 0}:${name}`, app.jobs.instanceId, answerLease(reply, BACKUP_DOWNLOAD_HOLD_SECONDS));
            if (!lease) throw new AppError(409, 'errors.downloadBusy');
            // Given back once the answer closes, whatever became of the backup's stream.
            releaseWithAnswer(reply, lease);
            const give = () => void lease.release().catch(() => {});
            let kept: Awaited<ReturnType<typeof openBackup>>;
            try {
              kept = await openBackup(app, name);
            } catch (e) {
              give();
              throw e;
            }
            if (!kept) {
              give();
              throw notFound();
            }
            kept.body.once('close', give);
            const headers = {
              'Content-Type': 'application/gzip',
              'Content-Length': String(kept.size),
              'Content-Disposition': contentDisposition('attachment', name),
              'X-Content-Type-Options': 'nosniff',
              'Cache-Control': 'private, no-store',
            };
            // A download manager asking the size first (HEAD): answered, no byte of it sent, not a download.
            if (req.method === 'HEAD') {
              kept.body.off('close', give).destroy();
              await lease.release();
              // An empty stream: Fastify's HEAD answer keeps the length said above (a bare send() says 0).
              return reply.headers(headers).send(Readable.from([]));
            }
            // Not among the EXPORTS_AT_ONCE places (decision 098): no database or processor work, and a
            // download of a few GB over a slow line would hold one of the few places from the lists' exports.
            // The whole database leaving the system is on the record (or it does not leave).
            try {
              await logAction(app.db, req.actor, { action: 'Download', entity: 'Backup', message: name, data: { size: kept.size } });
            } catch (e) {
              kept.body.destroy();
              throw e;
            }
            // The lease is given back before the last byte is sent, so a download asked for right after
            // it arrived is not refused (and at the latest when a download cut short closes).
            const sent = new Transform({
              transform: (chunk: Buffer, _enc, next) => next(null, chunk),
              flush: (next) => void lease.release().then(() => next(), () => next()),
            });
            pipeline(kept.body, sent, () => {});
            return reply.headers(headers).send(sent);
          },
        },
      },
      { tags: ['jobs'] },
    );
  },
  { name: 'backup' },
);
