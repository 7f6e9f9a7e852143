-- The daily prune of the search words (0033) deleted every word no account had, as its statement's
-- snapshot saw account_words: a rename that gave a word back to an account while the prune ran (its
-- new account_words row not committed yet, its search_words insert a no-op on the row still there)
-- lost the word from search_words when the prune committed, and the global search missed the account
-- by it from then on. The prune now first takes a SHARE lock on account_words: its delete sees every
-- word the saves before it wrote, and the saves after it wait while it deletes (a few hundred ms at
-- full size, once a day). A save still open (an import) holds the lock back: the prune asks for it
-- `tries` times, each time for `wait_ms` at most (a lock request waiting in the queue holds every
-- later save back, so each wait is short), half a second apart; if it never gets it, it answers -1
-- and deletes nothing (the caller says so: the job fails and is tried again later).
DROP FUNCTION IF EXISTS public.crm_search_words_prune();
--> statement-breakpoint
CREATE FUNCTION public.crm_search_words_prune(tries integer DEFAULT 20, wait_ms integer DEFAULT 100) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  n integer;
  was text := current_setting('lock_timeout');
BEGIN
  FOR i IN 1..tries LOOP
    BEGIN
      PERFORM set_config('lock_timeout', wait_ms || 'ms', true);
      LOCK TABLE public.account_words IN SHARE MODE;
      PERFORM set_config('lock_timeout', was, true);
      WITH gone AS (
        DELETE FROM public.search_words s WHERE NOT EXISTS (SELECT 1 FROM public.account_words a WHERE a.word = s.word) RETURNING 1
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
