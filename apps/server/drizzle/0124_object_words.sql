-- The global search's properties by the words of their search text (issue 50, decision 126). A
-- fragment typed without a space lies inside one word of a property's search text, so the
-- properties were found by walking all of them in reference order and testing each search text
-- (1,856 rows walked for «mail», 821 for «Παπαδ», every one of the 50,000 for a fragment in fewer
-- than 20 of them). As the accounts' words (0033, 0103), each word gives its own first 20:
-- - object_search_words holds every distinct word of the properties once, with a trigram index:
--   the words that contain the fragment (few: the properties have no e-mails nor phones);
-- - object_words holds each property's words (not a draft's: no one finds a draft) with its
--   reference number, ordered by word and number: a word's first 20 properties come from the
--   index alone, in the order the search shows them.
-- Both are kept by triggers on objects (the search text changed, also by an owner's rename, a
-- draft saved, the reference number changed). A word no property has any more stays in
-- object_search_words (it finds nothing) until crm_object_search_words_prune() runs.
CREATE TABLE IF NOT EXISTS "object_search_words" (
  "word" text COLLATE "C" PRIMARY KEY
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "object_words" (
  "word" text COLLATE "C" NOT NULL,
  "object_id" integer NOT NULL REFERENCES "objects"("id") ON DELETE CASCADE,
  "reference_number" integer NOT NULL
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.crm_object_words_sync() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- object_words first, always (an insert too): its ROW EXCLUSIVE lock is what the prune's SHARE lock
  -- waits for, so a word the prune is about to delete as nobody's comes back with this save's row.
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM object_words WHERE object_id = OLD.id;
  ELSE
    LOCK TABLE object_words IN ROW EXCLUSIVE MODE;
  END IF;
  IF NOT NEW.draft THEN
    INSERT INTO object_search_words (word) SELECT w FROM unnest(public.crm_search_text_words(NEW.search_text)) w ORDER BY 1 ON CONFLICT DO NOTHING;
    INSERT INTO object_words (word, object_id, reference_number)
      SELECT w, NEW.id, NEW.reference_number FROM unnest(public.crm_search_text_words(NEW.search_text)) w;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS objects_words_insert ON objects;
--> statement-breakpoint
CREATE TRIGGER objects_words_insert AFTER INSERT ON objects
  FOR EACH ROW EXECUTE FUNCTION public.crm_object_words_sync();
--> statement-breakpoint
-- search_text is written by a trigger (the titles, the address, the owner's name): compared.
DROP TRIGGER IF EXISTS objects_words_update ON objects;
--> statement-breakpoint
CREATE TRIGGER objects_words_update AFTER UPDATE ON objects
  FOR EACH ROW WHEN (OLD.search_text IS DISTINCT FROM NEW.search_text OR OLD.draft IS DISTINCT FROM NEW.draft
    OR OLD.reference_number IS DISTINCT FROM NEW.reference_number)
  EXECUTE FUNCTION public.crm_object_words_sync();
--> statement-breakpoint
-- Rebuilt whole (this migration, and a bulk load that skipped the triggers).
CREATE OR REPLACE FUNCTION public.crm_object_words_rebuild() RETURNS void
LANGUAGE sql AS $$
  DELETE FROM object_words;
  DELETE FROM object_search_words;
  INSERT INTO object_words (word, object_id, reference_number)
    SELECT w, o.id, o.reference_number FROM objects o, unnest(public.crm_search_text_words(o.search_text)) w WHERE NOT o.draft;
  INSERT INTO object_search_words (word) SELECT DISTINCT word FROM object_words;
$$;
--> statement-breakpoint
-- Words no property has any more (titles and addresses changed, properties deleted), as the
-- accounts' (0123): a SHARE lock on object_words first, so a save giving a word back is not lost;
-- asked for in short tries, -1 when never given.
CREATE OR REPLACE FUNCTION public.crm_object_search_words_prune(tries integer DEFAULT 20, wait_ms integer DEFAULT 100) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  n integer;
  was text := current_setting('lock_timeout');
BEGIN
  FOR i IN 1..tries LOOP
    BEGIN
      PERFORM set_config('lock_timeout', wait_ms || 'ms', true);
      LOCK TABLE public.object_words IN SHARE MODE;
      PERFORM set_config('lock_timeout', was, true);
      WITH gone AS (
        DELETE FROM public.object_search_words s WHERE NOT EXISTS (SELECT 1 FROM public.object_words o WHERE o.word = s.word) RETURNING 1
      ) SELECT count(*)::int INTO n FROM gone;
      RETURN n;
    EXCEPTION WHEN lock_not_available THEN
      PERFORM set_config('lock_timeout', was, true);
      IF i < tries THEN PERFORM pg_sleep(0.5); END IF;
    END;
  END LOOP;
  RETURN -1;
END
$$;
--> statement-breakpoint
SELECT public.crm_object_words_rebuild();
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "object_search_words_trgm_idx" ON "object_search_words" USING gin ("word" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "object_words_word_idx" ON "object_words" ("word", "reference_number", "object_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "object_words_object_idx" ON "object_words" ("object_id");
--> statement-breakpoint
-- Read from their indexes alone, as the accounts' words (0121).
ALTER TABLE "object_words" SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_insert_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.05);
--> statement-breakpoint
ALTER TABLE "object_search_words" SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_insert_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.05);
--> statement-breakpoint
ANALYZE object_words;
--> statement-breakpoint
ANALYZE object_search_words;
