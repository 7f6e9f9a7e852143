-- The availability grid (decision 117) finds the properties not let short that a stay of its window
-- names: the window's stays' properties less the short lets, read from this index alone (a few
-- pages), where each stay's property was looked up in the table one by one (600 look-ups for two weeks).
CREATE INDEX IF NOT EXISTS "objects_short_rent_id_idx" ON "objects" ("id") WHERE "for_short_rent";
