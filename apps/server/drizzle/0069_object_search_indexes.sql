-- The property search's form (a service and its price, a place with the places under it, an area),
-- counted and paged from indexes alone (issue 50): each service's price with the place, the area and
-- the order's keys. Before, the count of a place's flats for sale in a price band joined two bitmaps
-- (the place's 1,500 properties and the 22,000 for sale in the band) and read 600 table pages.
CREATE INDEX "objects_sale_place_idx" ON "objects" USING btree ("location_id", "sale_price") INCLUDE ("area", "created_on", "id") WHERE "for_sale";--> statement-breakpoint
CREATE INDEX "objects_rent_place_idx" ON "objects" USING btree ("location_id", "rent_price") INCLUDE ("area", "created_on", "id") WHERE "for_rent";--> statement-breakpoint
CREATE INDEX "objects_short_rent_place_idx" ON "objects" USING btree ("location_id", "short_rent_price") INCLUDE ("area", "created_on", "id") WHERE "for_short_rent";--> statement-breakpoint
DROP INDEX IF EXISTS "objects_for_sale_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "objects_for_rent_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "objects_for_short_rent_idx";--> statement-breakpoint
CREATE INDEX "objects_for_sale_idx" ON "objects" USING btree ("sale_price") INCLUDE ("location_id", "area", "created_on", "id") WHERE "for_sale";--> statement-breakpoint
CREATE INDEX "objects_for_rent_idx" ON "objects" USING btree ("rent_price") INCLUDE ("location_id", "area", "created_on", "id") WHERE "for_rent";--> statement-breakpoint
CREATE INDEX "objects_for_short_rent_idx" ON "objects" USING btree ("short_rent_price") INCLUDE ("location_id", "area", "created_on", "id") WHERE "for_short_rent";
