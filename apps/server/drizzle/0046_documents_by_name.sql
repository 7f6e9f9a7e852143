-- The document library in the reader's alphabet: by the name's search form (accents and case set
-- aside, final sigma as sigma), then as written. Sorted by lower(name) under the database's C
-- collation, accented Greek and Latin letters fell after ω and z ("Όροι μίσθωσης" after "Ωμέγα").
DROP INDEX IF EXISTS "documents_name_idx";
--> statement-breakpoint
CREATE INDEX "documents_name_idx" ON "documents" USING btree ((public.crm_search_norm("name")), "id");
