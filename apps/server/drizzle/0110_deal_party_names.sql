-- Issue 50, decision 103. (The tag is older than what is left here: this migration first also kept
-- the deals' parties' last names on each deal by triggers; that deadlocked renames, merges of
-- accounts and deal saves, and was dropped before any release, so it never ran anywhere shipped.)
-- The Viewings list searched by the words of the comments: the matched viewings' page walks this
-- index in the list's order (newest first, ties by id), read from the index alone, and stops at the
-- page, instead of reading each matched viewing by id to sort them all.
CREATE INDEX IF NOT EXISTS "viewings_date_id_idx" ON "viewings" ("date_of_viewing", "id");
