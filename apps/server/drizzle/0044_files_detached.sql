-- A file let go because its record was deleted (an account, a property, an activity) is marked with
-- the moment: it is no longer its uploader's pending upload (the per-person limit counts only uploads
-- waiting to be attached), it can never be attached to another record, and the purge removes it at
-- its next run instead of hours later. Those let go before this migration are marked now (an upload
-- never attached has no action-log entry of being attached; one let go has).
ALTER TABLE "files" ADD COLUMN "detached_on" timestamptz;
--> statement-breakpoint
UPDATE "files" f SET "detached_on" = now()
WHERE f."parent_type" IS NULL
  AND EXISTS (SELECT 1 FROM "action_log" l WHERE l."entity" = 'File' AND l."entity_id" = f."id" AND l."action" = 'Update' AND l."data" ? 'parentId');
