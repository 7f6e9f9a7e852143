-- A loan of a key's history can be corrected on its own (decision 014): its version guards the
-- correction (409 on a stale one). Every loan there starts at 1.
ALTER TABLE "object_key_loans" ADD COLUMN IF NOT EXISTS "version" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
-- The keys list searched by anyone who held a key: the keys of the holders found, and which of
-- their loans is the newest, come from this index alone (holder, key, loan), without reading the
-- loans themselves.
DROP INDEX IF EXISTS "object_key_loans_account_idx";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "object_key_loans_holder_idx" ON "object_key_loans" USING btree ("account_id", "key_id", "id");
