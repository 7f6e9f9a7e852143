-- Leads and deals filtered by a client's or a party's name keep the rows of a few thousand accounts,
-- sorted newest first and counted in the same pass. Each of those rows was read from the table
-- (1,859 lead pages and 542 party pages for "Παπαδ" on the bench agency) only for a date or an
-- id the index can carry. With these, page and count are read from the indexes alone.
CREATE INDEX IF NOT EXISTS "leads_account_cover_idx" ON "leads" ("account_id") INCLUDE ("created_on", "id");
--> statement-breakpoint
DROP INDEX IF EXISTS "leads_account_idx";
--> statement-breakpoint
ALTER INDEX "leads_account_cover_idx" RENAME TO "leads_account_idx";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "deal_parties_account_cover_idx" ON "deal_parties" ("account_id", "relation") INCLUDE ("deal_id");
--> statement-breakpoint
DROP INDEX IF EXISTS "deal_parties_account_idx";
--> statement-breakpoint
ALTER INDEX "deal_parties_account_cover_idx" RENAME TO "deal_parties_account_idx";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "deals_id_created_on_idx" ON "deals" ("id") INCLUDE ("created_on");
