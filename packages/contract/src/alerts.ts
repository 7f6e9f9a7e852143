import { z } from 'zod';
import { ALERT_DEFAULT_PAGE_SIZE, ALERT_NOTES_MAX, SHOW_ALL } from './constants.ts';
import { bodyPaging, byId, listAnswer, ZIdParam, ZOk, ZText, ZVersion } from './common.ts';
import type { CallSchemas } from './call.ts';

/** The alert list's page sizes (the spec: the same choices as deals, default 10). */
export const ALERT_PAGE_SIZES = [5, 10, 20, 50, SHOW_ALL] as const;

/** POST /api/alert/list */
export const ZAlertListBody = z.object({
  ...bodyPaging(SHOW_ALL, ALERT_DEFAULT_PAGE_SIZE),
});
export type TAlertListBody = z.infer<typeof ZAlertListBody>;

export const ZAlertRow = z.object({
  id: z.number().int(),
  /** When it was made, in the agency's time zone (YYYY-MM-DDTHH:mm:ss). */
  date: z.string(),
  /** Translated source (Rent, Keys, To-dos, Background jobs...). */
  source: z.string(),
  /** The content in the reader's language (the list shows its start). */
  content: z.string(),
  readedOn: z.string().nullable(),
  /** The name of who read it. */
  readedBy: z.string().nullable(),
});
export type TAlertRow = z.infer<typeof ZAlertRow>;
export const ZAlertListAnswer = listAnswer(ZAlertRow).extend({ unreadCount: z.number().int() });
export type TAlertListAnswer = z.infer<typeof ZAlertListAnswer>;

/** GET /api/alert/{id} (opening marks it read), and the answer of its changes. */
export const ZAlert = ZAlertRow.extend({
  notes: z.string().nullable(),
  /** The record it is about, linked from the alert page: Object, ObjectKey, Activity, Account, Job. */
  entity: z.string().nullable(),
  entityId: z.number().int().nullable(),
  /** The web path of that record, when it has a page. */
  link: z.string().nullable(),
  version: z.number().int(),
});
export type TAlert = z.infer<typeof ZAlert>;

/** POST /api/alert/update-notes/{id}; with `version` a later change by someone else is a 409. */
export const ZAlertNotes = z.object({
  notes: ZText(ALERT_NOTES_MAX).nullable(),
  version: ZVersion,
  /**
   * The notes as the caller last read them. Sent, the save is refused (409, with the current
   * alert) only when the notes changed since; someone opening the alert or marking it unread
   * (which counts the version up) does not. Without it, the version decides.
   */
  was: ZText(ALERT_NOTES_MAX).nullable().optional(),
});
export type TAlertNotes = z.infer<typeof ZAlertNotes>;

/** GET /api/jobs (admins): the background jobs' state — counts, and the latest failures with their errors. */
export const ZJobsQuery = z.object({ state: z.enum(['failed', 'queued', 'running', 'done']).default('failed'), limit: z.coerce.number().int().min(1).max(200).default(50) });
export const ZJobRow = z.object({
  id: z.number().int(),
  name: z.string(),
  state: z.string(),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  runAt: z.string(),
  finishedOn: z.string().nullable(),
  lastError: z.string().nullable(),
});
export const ZJobsAnswer = z.object({ counts: z.record(z.string(), z.number().int()), items: z.array(ZJobRow) });
export type TJobsAnswer = z.infer<typeof ZJobsAnswer>;

/** GET /api/backups (admins): the backups made (newest first), where they are, the next daily one, a failure since the last. */
export const ZBackupFile = z.object({ name: z.string(), size: z.number().int(), at: z.string() });
/** Why a backup failed: the server's disk is full, the backup folder cannot be written, the database did not answer, or something else. */
export const ZBackupFailureReason = z.enum(['diskFull', 'notWritable', 'databaseUnreachable', 'other']);
export type TBackupFailureReason = z.infer<typeof ZBackupFailureReason>;

export const ZBackupsAnswer = z.object({
  /** The daily backup is on (BACKUPS, BACKUP_KEEP). */
  daily: z.boolean(),
  /** Its time on the agency's clock, HH:MM. */
  at: z.string(),
  /** The newest this many are kept (0: all). */
  keep: z.number().int(),
  /** The folder on the server, or the file store's place (s3://bucket/prefix/backups/). */
  dir: z.string(),
  /** Kept in the file store (STORAGE=s3), where every instance lists and serves them; else on this server's disk. */
  inStore: z.boolean(),
  /** The next daily backup (agency's date-time), null when off. */
  next: z.string().nullable(),
  /** A backup is waiting to start or being made. */
  pending: z.boolean(),
  items: z.array(ZBackupFile),
  /** The newest failed attempt when it is newer than the last backup: why (translated by the page), the technical message, and when it is tried again (null: not). */
  failure: z.object({ at: z.string(), reason: ZBackupFailureReason, error: z.string(), retryAt: z.string().nullable() }).nullable(),
});
export type TBackupsAnswer = z.infer<typeof ZBackupsAnswer>;

/** The alerts' calls and their schemas (decision 057); their methods and paths: `alerts.resource.ts`. */
export const ALERT_API = {
  list: { body: ZAlertListBody, answer: ZAlertListAnswer },
  view: byId(ZAlert),
  markUnread: byId(ZAlert),
  updateNotes: { params: ZIdParam, body: ZAlertNotes, answer: ZAlert },
  remove: byId(ZOk),
} satisfies Record<string, CallSchemas>;

/** The background jobs' calls (decision 057): the runner's state, a failed job retried. */
export const JOB_API = {
  list: { query: ZJobsQuery, answer: ZJobsAnswer },
  retry: byId(ZOk),
} satisfies Record<string, CallSchemas>;

/** GET /api/backups/{name}: one backup kept (crm-YYYY-MM-DD-HHmm.tar.gz, -2...), as it is kept. */
export const ZBackupNameParam = z.object({ name: z.string().regex(/^crm-\d{4}-\d{2}-\d{2}-\d{4}(-\d{1,3})?\.tar\.gz$/) });

/** The backups' calls (decision 057): the backups on the server, a backup now, one downloaded. */
export const BACKUP_API = {
  list: { answer: ZBackupsAnswer },
  start: { answer: ZOk },
  download: { params: ZBackupNameParam },
} satisfies Record<string, CallSchemas>;
