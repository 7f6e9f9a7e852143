-- The Clients list's last-name filter rechecked crm_search_norm(last_name) (an unaccent look-up per
-- letter) on every candidate row, in two statements (the page and its count). The normal form is
-- stored now, its trigram index holds clients only, and the Latin skeleton gets a clients-only
-- index too (a Latin fragment was AND-ed with the index of every client). On the bench agency
-- "Παπαδ" (1,426 clients) went from 7 + 5.5 ms to about 3 ms for page and count together.
ALTER TABLE "accounts" ADD COLUMN "last_name_norm" text GENERATED ALWAYS AS (public.crm_search_norm(coalesce(last_name, ''))) STORED NOT NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS accounts_client_last_name_norm_trgm_idx ON accounts USING gin (last_name_norm gin_trgm_ops) WHERE is_client;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS accounts_client_last_name_latin_trgm_idx ON accounts USING gin (last_name_latin gin_trgm_ops) WHERE is_client;
--> statement-breakpoint
DROP INDEX IF EXISTS accounts_client_last_name_trgm_idx;
