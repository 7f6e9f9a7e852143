-- The global search's common fragments walked in the answer's order (issue 50, decision 099).
-- «mail», «.gr», «2310» are in tens of thousands of words: looked up word by word they cost
-- 130-430 ms. Their 20 accounts shown are the first 20 in name order that have the fragment, so
-- the accounts are walked in name order and each is tested on its search text. From the name
-- indexes (0025) each account walked costs a read of its row; from these, which carry the search
-- text, none: «gmail» in Russian order walks 15,031 accounts (every Russian name first) in
-- 2-12 ms, against 80-100 ms reading the rows. A btree row holds at most 2,704 bytes: an account
-- with a longer name and search text (a mailing list of a thousand addresses) is left out of them
-- and found through the last index, the few such accounts read apart.
CREATE INDEX IF NOT EXISTS "accounts_name_search_en_idx" ON "accounts" (display_name COLLATE "en-x-icu", id) INCLUDE (search_text)
  WHERE coalesce(octet_length(display_name), 0) + coalesce(octet_length(search_text), 0) <= 2400;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "accounts_name_search_el_idx" ON "accounts" (display_name COLLATE "el-x-icu", id) INCLUDE (search_text)
  WHERE coalesce(octet_length(display_name), 0) + coalesce(octet_length(search_text), 0) <= 2400;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "accounts_name_search_ru_idx" ON "accounts" (display_name COLLATE "ru-x-icu", id) INCLUDE (search_text)
  WHERE coalesce(octet_length(display_name), 0) + coalesce(octet_length(search_text), 0) <= 2400;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "accounts_long_search_idx" ON "accounts" (id)
  WHERE coalesce(octet_length(display_name), 0) + coalesce(octet_length(search_text), 0) > 2400;
