-- Issue 46, decision 104: a file written to the store before the row that will name it commits
-- (a synced mail's attachments) is first named here, in its own committed statement; the row that
-- names it takes it off in its own transaction. A name left here by a process that died in between
-- is an orphan: after a grace period housekeeping marks it swept (committed: no row may take it off
-- any more), then removes the file, then the name.
CREATE TABLE "stored_files_pending" (
  "name" text PRIMARY KEY,
  "made_on" timestamptz NOT NULL DEFAULT now(),
  "swept_on" timestamptz
);
CREATE INDEX "stored_files_pending_made_on_idx" ON "stored_files_pending" ("made_on");
-- Which instance holds a mailbox's sync lease (shown nowhere; a renewal and the release are its own only).
ALTER TABLE "mailboxes" ADD COLUMN "sync_held_by" text;
