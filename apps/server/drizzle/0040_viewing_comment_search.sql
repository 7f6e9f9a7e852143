-- The Viewings list searches what clients said of the properties shown (decision 015): each
-- comment's search normal form (accents and case ignored, as every search of the CRM) is stored,
-- so the recheck of a trigram match reads it instead of unaccenting each candidate comment, and a
-- trigram index over the comments there are finds the few viewings a fragment names among 20k.
ALTER TABLE "viewing_objects" ADD COLUMN "comment_norm" text GENERATED ALWAYS AS (public.crm_search_norm("comment")) STORED;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "viewing_objects_comment_norm_trgm_idx" ON "viewing_objects" USING gin ("comment_norm" gin_trgm_ops) WHERE "comment_norm" IS NOT NULL;
