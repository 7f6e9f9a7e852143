-- The global search found the accounts containing a typed fragment through the trigram index on
-- accounts.search_text, then rechecked every candidate on the wide accounts row: "Παπαδ" matches
-- 2,939 of the bench agency's 100,000 accounts, spread over 2,482 table pages (5.4 ms warm, the
-- largest part of every search). A fragment without a space lies inside one word of the search
-- text, so the same question can be asked of the words instead:
-- - search_words holds every distinct word once (310,000 for the bench agency), with a trigram
--   index: "%παπαδ%" is 4 words, on one page;
-- - account_words holds each account's words with its name, ordered by word: the accounts of those
--   words, with the names the hits are sorted by, come from the index alone.
-- Both are kept by a trigger on accounts. A word no account has any more stays in search_words
-- (it finds nothing) until crm_search_words_prune() runs.
CREATE TABLE IF NOT EXISTS "search_words" (
  "word" text COLLATE "C" PRIMARY KEY
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "account_words" (
  "word" text COLLATE "C" NOT NULL,
  "account_id" integer NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
  "name" text NOT NULL
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.crm_search_text_words(t text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT w), '{}') FROM unnest(string_to_array(t, ' ')) w WHERE w <> ''
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.crm_account_words_sync() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM account_words WHERE account_id = NEW.id;
  INSERT INTO search_words (word) SELECT w FROM unnest(public.crm_search_text_words(NEW.search_text)) w ORDER BY 1 ON CONFLICT DO NOTHING;
  INSERT INTO account_words (word, account_id, name) SELECT w, NEW.id, NEW.display_name FROM unnest(public.crm_search_text_words(NEW.search_text)) w;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS accounts_words_insert ON accounts;
--> statement-breakpoint
CREATE TRIGGER accounts_words_insert AFTER INSERT ON accounts
  FOR EACH ROW EXECUTE FUNCTION public.crm_account_words_sync();
--> statement-breakpoint
-- search_text and display_name are generated columns (never in an UPDATE's SET list): compared.
DROP TRIGGER IF EXISTS accounts_words_update ON accounts;
--> statement-breakpoint
CREATE TRIGGER accounts_words_update AFTER UPDATE ON accounts
  FOR EACH ROW WHEN (OLD.search_text IS DISTINCT FROM NEW.search_text OR OLD.display_name IS DISTINCT FROM NEW.display_name)
  EXECUTE FUNCTION public.crm_account_words_sync();
--> statement-breakpoint
-- Rebuilt whole (this migration, and a bulk load that skipped the triggers).
CREATE OR REPLACE FUNCTION public.crm_account_words_rebuild() RETURNS void
LANGUAGE sql AS $$
  DELETE FROM account_words;
  DELETE FROM search_words;
  INSERT INTO account_words (word, account_id, name)
    SELECT w, a.id, a.display_name FROM accounts a, unnest(public.crm_search_text_words(a.search_text)) w;
  INSERT INTO search_words (word) SELECT DISTINCT word FROM account_words;
$$;
--> statement-breakpoint
-- Words no account has any more (names typed and changed, accounts deleted).
CREATE OR REPLACE FUNCTION public.crm_search_words_prune() RETURNS integer
LANGUAGE sql AS $$
  WITH gone AS (
    DELETE FROM search_words s WHERE NOT EXISTS (SELECT 1 FROM account_words a WHERE a.word = s.word) RETURNING 1
  ) SELECT count(*)::int FROM gone
$$;
--> statement-breakpoint
SELECT public.crm_account_words_rebuild();
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "account_words_word_idx" ON "account_words" ("word", "name", "account_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "account_words_account_idx" ON "account_words" ("account_id");
--> statement-breakpoint
ANALYZE search_words;
