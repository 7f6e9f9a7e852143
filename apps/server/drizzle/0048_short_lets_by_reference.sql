-- The availability grid pages the short-let properties by reference number: walked in that order
-- from their own index, a page deep in the list reads its own rows, not every property before it.
CREATE INDEX "objects_short_rent_ref_idx" ON "objects" USING btree ("reference_number") WHERE "for_short_rent";
