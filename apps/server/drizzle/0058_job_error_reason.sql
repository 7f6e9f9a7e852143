-- Why a job failed, as a code the office's screens translate (a backup: diskFull, notWritable,
-- databaseUnreachable, other); the technical message stays in last_error.
ALTER TABLE "jobs" ADD COLUMN "last_error_reason" text;
