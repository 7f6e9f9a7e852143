-- account_last_names (0031) kept in the order of its names (issue 50, decision 128). A last-name
-- filter (the leads' client, the deals' parties, the keys' holders) reads the matching rows' names
-- from the table to recheck its trigram index: in the order the accounts were entered, the 2,939
-- names with «παπαδ» lay on 853 of the table's 880 pages; in name order, on 29. The index gives the
-- order the table is rewritten in (CLUSTER); new and renamed accounts go where there is room, and
-- the daily job accounts.lastNamesReorder rewrites the table again once they are many.
CREATE INDEX IF NOT EXISTS "account_last_names_names_idx" ON "account_last_names" ("names" COLLATE "C");
--> statement-breakpoint
CLUSTER "account_last_names" USING "account_last_names_names_idx";
