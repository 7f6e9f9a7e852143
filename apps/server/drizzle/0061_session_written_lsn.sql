-- Read your own writes with a replica (decision 061): where the primary's WAL stood after the
-- session's last write. A read the replica has not caught up with goes to the primary. Nullable and
-- unused by older versions: old and new instances run side by side during an upgrade.
ALTER TABLE "sessions" ADD COLUMN IF NOT EXISTS "written_lsn" pg_lsn;
