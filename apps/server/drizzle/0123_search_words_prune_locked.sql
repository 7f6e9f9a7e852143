-- The daily prune of the search words (0033) deleted every word no account had, as its statement's
-- snapshot saw account_words: a rename that gave a word back to an account while the prune ran (its
-- new account_words row not committed yet, its search_words insert a no-op on the row still there)
-- lost the word from search_words when the prune committed, and the global search missed the account
-- by it from then on. The prune now first takes a SHARE lock on account_words: it waits for the saves
-- writing words to commit, holds new ones back while it deletes (a few hundred ms at full size, once
-- a day), and its delete sees every word they wrote. It waits 5 s at most for the lock (a long import
-- holding it): then it leaves the words for the next day's run rather than hold every save back.
CREATE OR REPLACE FUNCTION public.crm_search_words_prune() RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  PERFORM set_config('lock_timeout', '5s', true);
  BEGIN
    LOCK TABLE public.account_words IN SHARE MODE;
  EXCEPTION WHEN lock_not_available THEN
    RETURN 0;
  END;
  WITH gone AS (
    DELETE FROM public.search_words s WHERE NOT EXISTS (SELECT 1 FROM public.account_words a WHERE a.word = s.word) RETURNING 1
  ) SELECT count(*)::int INTO n FROM gone;
  RETURN n;
END
$$;
