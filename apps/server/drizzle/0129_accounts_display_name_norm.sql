-- The accounts' display names in search form (lower case, no accents, σ for ς), indexed: an import's
-- lawyer and notary columns and a lead's client named by name alone are found by it (issue 44,
-- decision 052), not by reading every account (145 ms and 47 ms a preview at 100,000 accounts,
-- inside the deals import's lock), and whatever the case and accents the file writes them in. The
-- last and first name alone too: a display name holds the middle name (a patronymic), which a file's
-- "First Last" leaves out.
CREATE INDEX IF NOT EXISTS "accounts_display_name_norm_idx" ON "accounts" (public.crm_search_norm(display_name));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "accounts_last_first_norm_idx" ON "accounts" (public.crm_search_norm(btrim(coalesce(last_name, '') || ' ' || coalesce(first_name, ''))));
