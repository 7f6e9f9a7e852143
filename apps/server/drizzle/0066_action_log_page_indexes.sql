-- The action log's indexes end with the id (decision 021): a page is newest first, ties by id, so
-- its ids come from the index alone, however many rows it skips (page 50 skipped 980 whole rows,
-- each read from the table), and only the page's 20 rows are read.
DROP INDEX IF EXISTS "action_log_date_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "action_log_by_date_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "action_log_entity_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "action_log_entity_date_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "action_log_by_entity_date_idx";--> statement-breakpoint
CREATE INDEX "action_log_date_idx" ON "action_log" USING btree ("date","id");--> statement-breakpoint
CREATE INDEX "action_log_by_date_idx" ON "action_log" USING btree ("action_by","date","id");--> statement-breakpoint
CREATE INDEX "action_log_entity_idx" ON "action_log" USING btree ("entity","entity_id","date","id");--> statement-breakpoint
CREATE INDEX "action_log_entity_date_idx" ON "action_log" USING btree ("entity","date","id");--> statement-breakpoint
CREATE INDEX "action_log_by_entity_date_idx" ON "action_log" USING btree ("action_by","entity","date","id");
