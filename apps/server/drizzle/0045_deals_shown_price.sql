-- The deals list sorts by the price it shows: the final price, else the asking price (as the column
-- and the board's sums read it). Deals with only an asking price fell to the end in both directions.
DROP INDEX IF EXISTS "deals_price_idx";
--> statement-breakpoint
CREATE INDEX "deals_shown_price_idx" ON "deals" USING btree ((coalesce("price", "asking_price")), "id");
