-- The properties list sorted by place reads each place's first page in id order (objects.lists.ts,
-- sortBy 'location'): with the id in the index a place's page is its first entries, read from the
-- index alone, where the index of the place alone gave every property of the place (485 on the
-- bench agency's largest) from the table to be sorted (930 table pages for a page of 20).
DROP INDEX IF EXISTS "objects_location_idx";--> statement-breakpoint
CREATE INDEX "objects_location_idx" ON "objects" USING btree ("location_id", "id");
