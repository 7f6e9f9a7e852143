-- The "last name" filters of leads (the client) and deals (a party) looked names up in
-- accounts.search_text: every name, e-mail, phone and document number of the account, so
-- "Γεωργ" also found every Γεώργιος, and each of the few thousand candidates was rechecked on the
-- wide accounts row (2,465 table pages for "Παπαδ" on the bench agency: 5.6 ms warm).
-- account_last_names keeps, per account, only its last names in every script and its company name,
-- in the search normal form and as a Latin skeleton (Greeklish), in a narrow table of its own
-- (7 MB against 59 MB): the same look-up reads a few hundred pages (1.8 ms).
CREATE TABLE IF NOT EXISTS "account_last_names" (
  "account_id" integer PRIMARY KEY REFERENCES "accounts"("id") ON DELETE CASCADE,
  "names" text NOT NULL,
  "latin" text NOT NULL
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.crm_account_last_names_text(a accounts) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT concat_ws(' ', a.last_name, a.last_name_eng, a.last_name_local, a.name)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.crm_account_last_names_sync() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_last_names (account_id, names, latin)
  VALUES (NEW.id, public.crm_search_norm(public.crm_account_last_names_text(NEW)), public.crm_latin_skeleton(public.crm_account_last_names_text(NEW)))
  ON CONFLICT (account_id) DO UPDATE SET names = EXCLUDED.names, latin = EXCLUDED.latin;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS accounts_last_names_sync ON accounts;
--> statement-breakpoint
CREATE TRIGGER accounts_last_names_sync AFTER INSERT OR UPDATE OF last_name, last_name_eng, last_name_local, name ON accounts
  FOR EACH ROW EXECUTE FUNCTION public.crm_account_last_names_sync();
--> statement-breakpoint
-- Rebuilt whole (this migration, and a bulk load that skipped the triggers).
CREATE OR REPLACE FUNCTION public.crm_account_last_names_rebuild() RETURNS void
LANGUAGE sql AS $$
  DELETE FROM account_last_names;
  INSERT INTO account_last_names (account_id, names, latin)
  SELECT a.id, public.crm_search_norm(public.crm_account_last_names_text(a)), public.crm_latin_skeleton(public.crm_account_last_names_text(a)) FROM accounts a;
$$;
--> statement-breakpoint
SELECT public.crm_account_last_names_rebuild();
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "account_last_names_names_trgm_idx" ON "account_last_names" USING gin ("names" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "account_last_names_latin_trgm_idx" ON "account_last_names" USING gin ("latin" gin_trgm_ops);
