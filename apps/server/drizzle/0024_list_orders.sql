-- The leads list opens newest first (ties by id, either direction) and the deals board shows each
-- stage's most recently changed deals: both read from these indexes instead of sorting every row
-- (leads list 1.6 s and deals board 0.5 s p95 at full size under load, decision 023). An object's
-- matching leads are those whose price band for one of its services holds its price: a GiST index
-- per service on that band, spelled exactly as the query spells it (leadPriceBand in the schema).
DROP INDEX "leads_created_on_idx";--> statement-breakpoint
CREATE INDEX "leads_created_on_id_idx" ON "leads" USING btree ("created_on","id");--> statement-breakpoint
CREATE INDEX "leads_purchase_band_idx" ON "leads" USING gist (numrange(case when purchase_budget_range_min * 0.8 > purchase_budget_range_max * 1.15 then purchase_budget_range_max * 1.15 else purchase_budget_range_min * 0.8 end, purchase_budget_range_max * 1.15, '[]')) WHERE for_purchase;--> statement-breakpoint
CREATE INDEX "leads_rent_band_idx" ON "leads" USING gist (numrange(case when rent_budget_range_min * 0.8 > rent_budget_range_max * 1.15 then rent_budget_range_max * 1.15 else rent_budget_range_min * 0.8 end, rent_budget_range_max * 1.15, '[]')) WHERE for_rent;--> statement-breakpoint
CREATE INDEX "leads_short_rent_band_idx" ON "leads" USING gist (numrange(case when short_rent_budget_range_min * 0.8 > short_rent_budget_range_max * 1.15 then short_rent_budget_range_max * 1.15 else short_rent_budget_range_min * 0.8 end, short_rent_budget_range_max * 1.15, '[]')) WHERE for_short_rent;--> statement-breakpoint
CREATE INDEX "deals_stage_modified_idx" ON "deals" USING btree ("deal_stage","modified_on","id");--> statement-breakpoint
-- Statistics for the new expression indexes now, not after a tenth of the leads has changed.
ANALYZE "leads";
