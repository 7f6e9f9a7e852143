-- Accent-free text for search (Greek tonos, Latin diacritics), usable in indexes.
CREATE OR REPLACE FUNCTION crm_unaccent(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;
--> statement-breakpoint
-- The name shown for an account: a company's name, else "Last First Middle", else any name we have.
CREATE OR REPLACE FUNCTION crm_account_display_name(
  is_company boolean, name text, name_eng text, name_local text,
  last_name text, first_name text, middle_name text,
  last_name_eng text, first_name_eng text, last_name_local text, first_name_local text
) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(
    CASE WHEN is_company IS TRUE THEN coalesce(nullif(btrim(name), ''), nullif(btrim(name_eng), ''), nullif(btrim(name_local), '')) END,
    nullif(btrim(concat_ws(' ', nullif(btrim(last_name), ''), nullif(btrim(first_name), ''), nullif(btrim(middle_name), ''))), ''),
    nullif(btrim(name), ''), nullif(btrim(name_eng), ''), nullif(btrim(name_local), ''),
    nullif(btrim(concat_ws(' ', nullif(btrim(last_name_eng), ''), nullif(btrim(first_name_eng), ''))), ''),
    nullif(btrim(concat_ws(' ', nullif(btrim(last_name_local), ''), nullif(btrim(first_name_local), ''))), ''),
    '')
$$;
--> statement-breakpoint
-- Search normal form: lower case, no accents, Greek final sigma as sigma. Queries use it too.
CREATE OR REPLACE FUNCTION crm_search_norm(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT translate(lower(public.crm_unaccent($1)), 'ς', 'σ') $$;
--> statement-breakpoint
-- Everything global search matches on; phones also as bare digits.
CREATE OR REPLACE FUNCTION crm_account_search_text(
  names text[], emails text[], phones text[], numbers text[]
) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT public.crm_search_norm(concat_ws(' ',
    array_to_string(names, ' '),
    array_to_string(emails, ' '),
    array_to_string(phones, ' '),
    regexp_replace(array_to_string(phones, ' '), '[^0-9+]', '', 'g'),
    array_to_string(numbers, ' ')))
$$;
--> statement-breakpoint
ALTER TABLE accounts ADD COLUMN display_name text NOT NULL GENERATED ALWAYS AS (
  public.crm_account_display_name(is_company, name, name_eng, name_local, last_name, first_name, middle_name,
    last_name_eng, first_name_eng, last_name_local, first_name_local)
) STORED;
--> statement-breakpoint
ALTER TABLE accounts ADD COLUMN search_text text NOT NULL GENERATED ALWAYS AS (
  public.crm_account_search_text(
    ARRAY[first_name, last_name, middle_name, name, name_eng, name_local, first_name_eng, last_name_eng,
      middle_name_eng, first_name_local, last_name_local, middle_name_local],
    emails, phones,
    ARRAY[tax_number, tax_number_of_other_country, passport_number, internal_passport_number])
) STORED;
--> statement-breakpoint
CREATE INDEX accounts_search_trgm_idx ON accounts USING gin (search_text gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX accounts_display_name_idx ON accounts (display_name);
--> statement-breakpoint
CREATE INDEX accounts_last_name_trgm_idx ON accounts USING gin (public.crm_search_norm(coalesce(last_name, '')) gin_trgm_ops);
--> statement-breakpoint
ALTER TABLE users ADD CONSTRAINT users_account_fk FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE SET NULL;
