-- The global search's fragments, ranked ahead (issue 50, decision 099). «Παπαδ» is 4 words of
-- search_words (0033) but 2,939 accounts: the search grouped them all, sorted them all by name in
-- the reader's language for the 20 shown, and looked up the open leads of every one of them for
-- the 20 newest (with the account ids held in an array that each lead was compared against).
-- Both answers are the first 20 of an order that does not depend on the fragment, so each word can
-- give its own first 20, and the answer is the first 20 of those (at most 20 a word matched):
-- - account_words gets an index by word and name in each reader's collation (en, el, ru): a word's
--   first 20 accounts by name come from the index alone, in order;
-- - lead_words holds, for each open lead that is not a draft, the words of its client's search
--   text with the lead's date: a word's 20 newest open leads come from its index alone.
-- lead_words is kept by triggers on leads (a lead added, moved to another client, closed or opened
-- again, saved from a draft, its date changed) and on accounts (a client's search text changed).
CREATE TABLE IF NOT EXISTS "lead_words" (
  "word" text COLLATE "C" NOT NULL,
  "lead_id" integer NOT NULL REFERENCES "leads"("id") ON DELETE CASCADE,
  "created_on" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.crm_lead_words_sync() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM lead_words WHERE lead_id = OLD.id;
  END IF;
  IF NEW.account_id IS NOT NULL AND NOT NEW.draft AND coalesce(NEW.stage, 0) NOT IN (6, 7) THEN
    -- The client's row locked against a rename until this transaction ends: a rename under way
    -- (its trigger does not see this lead yet) is waited for, and the words below, read in a
    -- statement of their own, are its new ones; a rename after it waits, and sees this lead.
    PERFORM 1 FROM accounts WHERE id = NEW.account_id FOR SHARE;
    INSERT INTO lead_words (word, lead_id, created_on)
      SELECT w, NEW.id, NEW.created_on FROM accounts a, unnest(public.crm_search_text_words(a.search_text)) w WHERE a.id = NEW.account_id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS leads_words_insert ON leads;
--> statement-breakpoint
CREATE TRIGGER leads_words_insert AFTER INSERT ON leads
  FOR EACH ROW EXECUTE FUNCTION public.crm_lead_words_sync();
--> statement-breakpoint
DROP TRIGGER IF EXISTS leads_words_update ON leads;
--> statement-breakpoint
CREATE TRIGGER leads_words_update AFTER UPDATE ON leads
  FOR EACH ROW WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id OR OLD.draft IS DISTINCT FROM NEW.draft
    OR OLD.created_on IS DISTINCT FROM NEW.created_on
    OR (coalesce(OLD.stage, 0) IN (6, 7)) IS DISTINCT FROM (coalesce(NEW.stage, 0) IN (6, 7)))
  EXECUTE FUNCTION public.crm_lead_words_sync();
--> statement-breakpoint
-- A client's words changed: its open leads' words with them (a new account has no leads yet).
CREATE OR REPLACE FUNCTION public.crm_lead_words_account_sync() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM lead_words lw USING leads l WHERE l.account_id = NEW.id AND lw.lead_id = l.id;
  INSERT INTO lead_words (word, lead_id, created_on)
    SELECT w, l.id, l.created_on FROM leads l, unnest(public.crm_search_text_words(NEW.search_text)) w
    WHERE l.account_id = NEW.id AND NOT l.draft AND coalesce(l.stage, 0) NOT IN (6, 7);
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS accounts_lead_words_update ON accounts;
--> statement-breakpoint
CREATE TRIGGER accounts_lead_words_update AFTER UPDATE ON accounts
  FOR EACH ROW WHEN (OLD.search_text IS DISTINCT FROM NEW.search_text)
  EXECUTE FUNCTION public.crm_lead_words_account_sync();
--> statement-breakpoint
-- Rebuilt whole (this migration, and a bulk load that skipped the triggers).
CREATE OR REPLACE FUNCTION public.crm_lead_words_rebuild() RETURNS void
LANGUAGE sql AS $$
  DELETE FROM lead_words;
  INSERT INTO lead_words (word, lead_id, created_on)
    SELECT w, l.id, l.created_on FROM leads l JOIN accounts a ON a.id = l.account_id, unnest(public.crm_search_text_words(a.search_text)) w
    WHERE NOT l.draft AND coalesce(l.stage, 0) NOT IN (6, 7);
$$;
--> statement-breakpoint
SELECT public.crm_lead_words_rebuild();
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "lead_words_word_idx" ON "lead_words" ("word", "created_on" DESC, "lead_id" DESC);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "lead_words_lead_idx" ON "lead_words" ("lead_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "account_words_name_en_idx" ON "account_words" ("word", "name" COLLATE "en-x-icu", "account_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "account_words_name_el_idx" ON "account_words" ("word", "name" COLLATE "el-x-icu", "account_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "account_words_name_ru_idx" ON "account_words" ("word", "name" COLLATE "ru-x-icu", "account_id");
--> statement-breakpoint
ANALYZE lead_words;
