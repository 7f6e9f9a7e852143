-- The agents' results (decision 071). The deals closed in a period, by their closing date: read from
-- the agents' side, PostgreSQL probed every deal each agent is in charge of (20,000 at full size)
-- for its stage and date.
CREATE INDEX IF NOT EXISTS "deals_closed_end_date_idx" ON "deals" ("end_date") WHERE "deal_stage" = 5;
--> statement-breakpoint
-- The properties taken on in a period and by whom, from the index alone (the wide property rows
-- were read one by one for the creator's account): the list's order index (0015) carries the
-- creator too. One index on created_on, not a second one beside it that the planner would weigh
-- against the first for every list of properties.
DROP INDEX IF EXISTS "objects_created_on_id_idx";
--> statement-breakpoint
CREATE INDEX "objects_created_on_id_idx" ON "objects" USING btree ("created_on", "id") INCLUDE ("created_by_account_id");
