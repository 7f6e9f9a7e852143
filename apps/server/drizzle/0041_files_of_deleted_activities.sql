-- Attachments of activities deleted with their lead, viewing, deal or reservation kept pointing at
-- an activity that no longer existed, and were never purged (their stored content stayed). They
-- are let go here, so the purge of unattached files removes them; deletes now do this themselves
-- (activity-orphans.ts).
UPDATE "files" SET "parent_type" = NULL, "parent_id" = NULL
WHERE "parent_type" = 3 AND NOT EXISTS (SELECT 1 FROM "activities" a WHERE a."id" = "files"."parent_id");
