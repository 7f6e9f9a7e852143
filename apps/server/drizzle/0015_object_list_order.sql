DROP INDEX "objects_created_on_idx";--> statement-breakpoint
DROP INDEX "objects_modified_on_idx";--> statement-breakpoint
CREATE INDEX "objects_created_on_id_idx" ON "objects" USING btree ("created_on","id");--> statement-breakpoint
CREATE INDEX "objects_modified_on_id_idx" ON "objects" USING btree ("modified_on","id");