-- Names sort as readers of each language expect (ICU collations: case and accents ignored, Ή next
-- to Η), paged through an index per interface language.
CREATE INDEX accounts_name_en_idx ON accounts (display_name COLLATE "en-x-icu", id);
--> statement-breakpoint
CREATE INDEX accounts_name_el_idx ON accounts (display_name COLLATE "el-x-icu", id);
--> statement-breakpoint
CREATE INDEX accounts_name_ru_idx ON accounts (display_name COLLATE "ru-x-icu", id);
--> statement-breakpoint
-- Greek and Cyrillic letters in Latin (on text already in the search normal form: lower case, no
-- accents, final sigma folded): digraphs first (ου, αι, μπ, ντ, γγ ...), then letter by letter.
CREATE OR REPLACE FUNCTION crm_translit(t text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT translate(
    replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
    replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
    replace(replace(replace(replace(replace(replace(replace(
      t, 'ου', 'u'), 'αι', 'e'), 'ει', 'i'), 'οι', 'i'), 'υι', 'i'), 'αυ', 'av'), 'ευ', 'ev'), 'ηυ', 'iv'),
      'μπ', 'b'), 'ντ', 'd'), 'γγ', 'g'), 'γκ', 'g'), 'γχ', 'gh'), 'τσ', 'ts'), 'τζ', 'tz'), 'θ', 'th'),
      'χ', 'h'), 'ψ', 'ps'), 'ξ', 'x'),
      'щ', 'sh'), 'ж', 'zh'), 'х', 'h'), 'ц', 'ts'), 'ч', 'ch'), 'ш', 'sh'), 'ю', 'iu'), 'я', 'ia'), 'ё', 'e'),
      'ъ', ''), 'ь', ''), 'й', 'i'),
    'αβγδεζηικλμνοπρστυφωабвгдезиклмнопрстуфыэ',
    'avgdeziiklmnoprstifoabvgdeziklmnoprstufie')
$$;
--> statement-breakpoint
-- One Latin spelling for the many a name is written in (Greeklish, Russian transliterations,
-- English): ch/kh/h, th/t, ph/f, y/j/i, ou/u, ai/e, ei/oi/i, mp/b, nt/d, ng/gk/g, ks/x, c/k, and no
-- doubled letters. Both the stored names and the typed text go through it.
CREATE OR REPLACE FUNCTION crm_latin_canon(t text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT regexp_replace(
    replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
      translate(replace(replace(replace(replace(replace(replace(
        t, 'shch', 'sh'), 'kh', 'h'), 'ch', 'h'), 'ph', 'f'), 'th', 't'), 'ck', 'k'), 'yjwc', 'iiok'),
      'ou', 'u'), 'ai', 'e'), 'ei', 'i'), 'oi', 'i'), 'ui', 'i'), 'mb', 'b'), 'mp', 'b'), 'nd', 'd'), 'nt', 'd'),
      'ng', 'g'), 'gk', 'g'), 'ks', 'x'),
    '([a-z])\1+', '\1', 'g')
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_latin_skeleton(t text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$ SELECT public.crm_latin_canon(public.crm_translit(public.crm_search_norm(t))) $$;
--> statement-breakpoint
-- The search text also holds the names' Latin skeleton: papadopoulou finds Παπαδοπούλου, ivanov
-- finds Иванов, through the same trigram index.
DROP INDEX IF EXISTS accounts_search_trgm_idx;
--> statement-breakpoint
ALTER TABLE accounts DROP COLUMN search_text;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_account_search_text(
  names text[], emails text[], phones text[], numbers text[]
) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT concat_ws(' ', public.crm_search_norm(concat_ws(' ',
    array_to_string(names, ' '),
    array_to_string(emails, ' '),
    array_to_string(phones, ' '),
    regexp_replace(array_to_string(phones, ' '), '[^0-9+]', '', 'g'),
    array_to_string(numbers, ' '))),
    public.crm_latin_skeleton(array_to_string(names, ' ')))
$$;
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
CREATE INDEX accounts_last_name_latin_trgm_idx ON accounts USING gin (public.crm_latin_skeleton(coalesce(last_name, '')) gin_trgm_ops);
