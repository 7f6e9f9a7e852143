-- The last name's Latin skeleton, stored: the last-name filter rechecks a column, not the
-- transliteration, on every candidate row.
ALTER TABLE "accounts" ADD COLUMN "last_name_latin" text GENERATED ALWAYS AS (public.crm_latin_skeleton(coalesce(last_name, ''))) STORED NOT NULL;
--> statement-breakpoint
DROP INDEX IF EXISTS accounts_last_name_latin_trgm_idx;
--> statement-breakpoint
CREATE INDEX accounts_last_name_latin_trgm_idx ON accounts USING gin (last_name_latin gin_trgm_ops);
