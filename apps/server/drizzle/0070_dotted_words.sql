-- A company's form is written with dots between its letters (Κτηματική Α.Ε., Δομική Ε.Π.Ε., Aegean
-- Homes S.A.) and typed as often without them: "ΑΕ" found nothing, since the search text had only
-- "α.ε.". The search text now also holds each such word of the names without its dots ("αε", and
-- "ae" from the Latin skeleton), so it is found by its start either way, by every search that reads
-- accounts.search_text and by the word table made from it. Only the names' words made of single
-- letters each followed by a dot: an e-mail's dots (notary.papas@) or a number's stay as they are.
CREATE OR REPLACE FUNCTION public.crm_search_undotted(t text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT string_agg(replace(w, '.', ''), ' ')
  FROM regexp_split_to_table(t, ' ') w
  WHERE w ~ '^([a-zα-ωа-яё]\.)+[a-zα-ωа-яё]\.?$'
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.crm_account_search_text(
  names text[], emails text[], phones text[], numbers text[]
) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT concat_ws(' ', public.crm_search_norm(concat_ws(' ',
    array_to_string(names, ' '),
    array_to_string(emails, ' '),
    array_to_string(phones, ' '),
    regexp_replace(array_to_string(phones, ' '), '[^0-9+]', '', 'g'),
    array_to_string(numbers, ' '))),
    public.crm_latin_skeleton(array_to_string(names, ' ')),
    public.crm_search_undotted(concat_ws(' ', public.crm_search_norm(array_to_string(names, ' ')), public.crm_latin_skeleton(array_to_string(names, ' ')))))
$$;
--> statement-breakpoint
-- The stored search text of the accounts already there is computed again where it differs (a name
-- with such a word): an update of a name column recomputes the generated column, and the word
-- table's trigger follows it.
UPDATE accounts SET name = name
WHERE search_text ~ '[a-zα-ωа-яё]\.[a-zα-ωа-яё]'
  AND search_text IS DISTINCT FROM public.crm_account_search_text(
    ARRAY[first_name, last_name, middle_name, name, name_eng, name_local, first_name_eng, last_name_eng,
      middle_name_eng, first_name_local, last_name_local, middle_name_local],
    emails, phones,
    ARRAY[tax_number, tax_number_of_other_country, passport_number, internal_passport_number]);
