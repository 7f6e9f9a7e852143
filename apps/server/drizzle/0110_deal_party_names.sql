-- Issue 50, decision 103: the deals list's "last name" filter reads its parties' last names on the
-- deal itself. Each deal keeps its parties' last names (account_last_names' normal form and Latin
-- skeleton, one account a line, so a fragment never matches across two people), trigram-indexed: the
-- page walks the deals in the list's order and the count and totals read the matched deals once,
-- instead of finding the accounts, then their parties, then the deals by id (three statements and
-- about 3,000 index probes for «Γεωργ»).
ALTER TABLE "deals" ADD COLUMN "party_names" text NOT NULL DEFAULT '';
--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "party_latin" text NOT NULL DEFAULT '';
--> statement-breakpoint
-- The deals' party names written again from their parties (only where they differ).
CREATE OR REPLACE FUNCTION public.crm_deal_party_names_set(deal_ids int[]) RETURNS void
LANGUAGE sql AS $$
  UPDATE public.deals d SET party_names = x.names, party_latin = x.latin
  FROM (
    SELECT i.id, coalesce(string_agg(n.names, E'\n' ORDER BY p.account_id), '') AS names, coalesce(string_agg(n.latin, E'\n' ORDER BY p.account_id), '') AS latin
    FROM unnest(deal_ids) AS i(id)
    LEFT JOIN (SELECT DISTINCT q.deal_id, q.account_id FROM public.deal_parties q WHERE q.deal_id = any(deal_ids)) p ON p.deal_id = i.id
    LEFT JOIN public.account_last_names n ON n.account_id = p.account_id
    GROUP BY i.id) x
  WHERE d.id = x.id AND (d.party_names, d.party_latin) IS DISTINCT FROM (x.names, x.latin);
$$;
--> statement-breakpoint
-- Parties added, moved or removed. The new parties' names are share-locked first: a rename of one
-- of them under way is waited for, and its new name read by the next statement (decision 099's way).
CREATE OR REPLACE FUNCTION public.crm_deal_party_names_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  ids int[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM 1 FROM public.account_last_names n WHERE n.account_id IN (SELECT account_id FROM new_rows) ORDER BY n.account_id FOR SHARE;
    SELECT array_agg(DISTINCT deal_id) INTO ids FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT deal_id) INTO ids FROM old_rows;
  ELSE
    PERFORM 1 FROM public.account_last_names n WHERE n.account_id IN (SELECT account_id FROM new_rows) ORDER BY n.account_id FOR SHARE;
    SELECT array_agg(DISTINCT x.deal_id) INTO ids FROM (SELECT deal_id FROM new_rows UNION SELECT deal_id FROM old_rows) x;
  END IF;
  IF ids IS NOT NULL THEN PERFORM public.crm_deal_party_names_set(ids); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER deal_parties_names_ins AFTER INSERT ON deal_parties REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.crm_deal_party_names_changed();
--> statement-breakpoint
CREATE TRIGGER deal_parties_names_upd AFTER UPDATE ON deal_parties REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.crm_deal_party_names_changed();
--> statement-breakpoint
CREATE TRIGGER deal_parties_names_del AFTER DELETE ON deal_parties REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.crm_deal_party_names_changed();
--> statement-breakpoint
-- A rename: the account's deals are locked before its names row is (a deal being saved holds its
-- deal, then share-locks its parties' names: the same order, so the two never wait on each other
-- in a circle), then written again from the new names.
CREATE OR REPLACE FUNCTION public.crm_deal_party_names_lock() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM public.deals d WHERE d.id IN (SELECT p.deal_id FROM public.deal_parties p WHERE p.account_id = NEW.id) ORDER BY d.id FOR NO KEY UPDATE;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER accounts_deal_party_names_lock BEFORE UPDATE OF last_name, last_name_eng, last_name_local, name ON accounts
  FOR EACH ROW WHEN ((OLD.last_name, OLD.last_name_eng, OLD.last_name_local, OLD.name) IS DISTINCT FROM (NEW.last_name, NEW.last_name_eng, NEW.last_name_local, NEW.name))
  EXECUTE FUNCTION public.crm_deal_party_names_lock();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.crm_deal_party_names_renamed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public.crm_deal_party_names_set(array(SELECT DISTINCT p.deal_id FROM public.deal_parties p WHERE p.account_id = NEW.account_id));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER account_last_names_deals AFTER UPDATE ON account_last_names
  FOR EACH ROW WHEN ((OLD.names, OLD.latin) IS DISTINCT FROM (NEW.names, NEW.latin))
  EXECUTE FUNCTION public.crm_deal_party_names_renamed();
--> statement-breakpoint
-- Written whole (this migration, and a bulk load that skipped the triggers).
CREATE OR REPLACE FUNCTION public.crm_deal_party_names_rebuild() RETURNS void
LANGUAGE sql AS $$
  SELECT public.crm_deal_party_names_set(array(SELECT id FROM public.deals));
$$;
--> statement-breakpoint
SELECT public.crm_deal_party_names_rebuild();
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "deals_party_names_trgm_idx" ON "deals" USING gin ("party_names" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "deals_party_latin_trgm_idx" ON "deals" USING gin ("party_latin" gin_trgm_ops);
--> statement-breakpoint
-- The Viewings list searched by the words of the comments: the matched viewings' page walks this
-- index in the list's order (newest first, ties by id), read from the index alone, and stops at the
-- page, instead of reading each matched viewing by id to sort them all.
CREATE INDEX IF NOT EXISTS "viewings_date_id_idx" ON "viewings" ("date_of_viewing", "id");
