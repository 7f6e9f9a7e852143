-- The global search's leads: the newest open leads of the accounts a name fragment matches (3,000
-- for «Παπαδ» on the bench agency). The open leads' index by account had neither the date nor the
-- id, so each of those leads was read from the table (1,577 pages) only to sort them. With these,
-- the newest are read from the index alone (decision 092).
CREATE INDEX IF NOT EXISTS "leads_open_account_cover_idx" ON "leads" ("account_id") INCLUDE ("created_on", "id") WHERE coalesce(stage, 0) not in (6, 7);
--> statement-breakpoint
DROP INDEX IF EXISTS "leads_open_account_idx";
--> statement-breakpoint
ALTER INDEX "leads_open_account_cover_idx" RENAME TO "leads_open_account_idx";
