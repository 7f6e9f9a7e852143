-- The last-name filters found the matched accounts through trigram indexes, then rechecked every
-- candidate on its row: the leads' client and the deals' party filters (decisions 107, 113) on
-- account_last_names ("Παπαδ": 2,939 of the bench agency's 100,000 accounts, on 853 of its pages,
-- about 2 ms), the Clients list's on the wide accounts rows (1,426 clients on 1,312 pages, about
-- 2.4 ms). Accounts share their last names, so the same question can be asked of the distinct
-- texts instead (decision 124):
-- - account_last_name_texts holds every distinct text those filters match once (account_last_names'
--   `names`, and the clients' `last_name_norm`), with its Latin skeleton (a function of the text:
--   crm_latin_skeleton normalises first), trigram-indexed: "%παπαδ%" is a few dozen texts on a few pages;
-- - the accounts of those texts come from a btree of account_last_names by names, and of the clients
--   by last_name_norm (with the list's order's columns), each read from the index alone.
-- Kept by triggers on account_last_names and accounts. A text nothing has any more stays (it finds
-- nothing) until crm_last_name_texts_prune() runs (the daily clean-up of the search words).
CREATE TABLE IF NOT EXISTS "account_last_name_texts" (
  "names" text PRIMARY KEY,
  "latin" text NOT NULL
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.crm_last_name_texts_sync() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.account_last_name_texts (names, latin) VALUES (NEW.names, NEW.latin) ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS account_last_names_texts_sync ON account_last_names;
--> statement-breakpoint
CREATE TRIGGER account_last_names_texts_sync AFTER INSERT OR UPDATE OF names, latin ON account_last_names
  FOR EACH ROW EXECUTE FUNCTION public.crm_last_name_texts_sync();
--> statement-breakpoint
-- A client's last name (a generated column, changed with last_name), and an account becoming a client.
CREATE OR REPLACE FUNCTION public.crm_client_last_name_texts_sync() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.account_last_name_texts (names, latin) VALUES (NEW.last_name_norm, NEW.last_name_latin) ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS accounts_client_last_name_texts_sync ON accounts;
--> statement-breakpoint
CREATE TRIGGER accounts_client_last_name_texts_sync AFTER INSERT OR UPDATE OF last_name, is_client ON accounts
  FOR EACH ROW WHEN (NEW.is_client) EXECUTE FUNCTION public.crm_client_last_name_texts_sync();
--> statement-breakpoint
-- Rebuilt whole (0031's rebuild, and a bulk load that skipped the triggers): the texts too.
CREATE OR REPLACE FUNCTION public.crm_account_last_names_rebuild() RETURNS void
LANGUAGE sql AS $$
  DELETE FROM account_last_names;
  INSERT INTO account_last_names (account_id, names, latin)
  SELECT a.id, public.crm_search_norm(public.crm_account_last_names_text(a)), public.crm_latin_skeleton(public.crm_account_last_names_text(a)) FROM accounts a;
  DELETE FROM account_last_name_texts;
  INSERT INTO account_last_name_texts (names, latin)
  SELECT DISTINCT ON (names) names, latin FROM (
    SELECT names, latin FROM account_last_names UNION ALL SELECT last_name_norm, last_name_latin FROM accounts WHERE is_client
  ) x ORDER BY names;
$$;
--> statement-breakpoint
-- Texts no account has any more (names changed, accounts deleted). The table is locked against the
-- triggers' inserts first: an account saved meanwhile with a text about to go waits, and then adds
-- it again; one saved before is seen by the delete (a statement of its own, after the lock).
CREATE OR REPLACE FUNCTION public.crm_last_name_texts_prune() RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE n integer;
BEGIN
  LOCK TABLE public.account_last_name_texts IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM public.account_last_name_texts t WHERE NOT EXISTS (SELECT 1 FROM public.account_last_names a WHERE a.names = t.names)
    AND NOT EXISTS (SELECT 1 FROM public.accounts c WHERE c.is_client AND c.last_name_norm = t.names);
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END
$$;
--> statement-breakpoint
INSERT INTO account_last_name_texts (names, latin)
SELECT DISTINCT ON (names) names, latin FROM (
  SELECT names, latin FROM account_last_names UNION ALL SELECT last_name_norm, last_name_latin FROM accounts WHERE is_client
) x ORDER BY names ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "account_last_name_texts_names_trgm_idx" ON "account_last_name_texts" USING gin ("names" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "account_last_name_texts_latin_trgm_idx" ON "account_last_name_texts" USING gin ("latin" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "account_last_names_names_idx" ON "account_last_names" ("names") INCLUDE ("account_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "accounts_client_last_name_norm_idx" ON "accounts" ("last_name_norm") INCLUDE ("created_on", "id") WHERE "is_client";
--> statement-breakpoint
-- Nothing looks those rows up by trigram any more.
DROP INDEX IF EXISTS "account_last_names_names_trgm_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "account_last_names_latin_trgm_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "accounts_client_last_name_norm_trgm_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "accounts_client_last_name_latin_trgm_idx";
--> statement-breakpoint
ANALYZE account_last_name_texts;
--> statement-breakpoint
ANALYZE account_last_names;
