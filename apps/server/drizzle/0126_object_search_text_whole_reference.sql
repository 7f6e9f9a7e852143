-- A property's search text holds its reference number as shown and bare (0011): `lpad(ref::text, 4,
-- '0')` padded 42 to "0042" but also cut 12345 to "1234", so every property numbered from 10000 up
-- carried the first four digits of its number as a word of its own (in its search text, and since
-- 0124 in object_words). As the SQL helper refDigits (src/lib/reference-number.ts): padded only
-- when shorter than four digits.
CREATE OR REPLACE FUNCTION crm_object_search_text(ref integer, title text, title_ru text, address text, owner text)
  RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT concat_ws(' ', lpad(ref::text, greatest(4, length(ref::text)), '0'), ref::text,
    public.crm_search_norm(concat_ws(' ', title, title_ru, address, owner)),
    public.crm_latin_skeleton(concat_ws(' ', title, title_ru, address, owner)))
$$;
--> statement-breakpoint
-- Only the properties whose number has five digits or more change (below, the text is the same).
-- Written as the save's trigger writes it (the titles in one text, 0074); objects_words_update then
-- writes their words again (0124). The cut numbers left in object_search_words go with the daily prune.
UPDATE objects o SET search_text = public.crm_object_search_text(o.reference_number, concat_ws(' ', o.title, o.title_en), o.title_ru, o.address,
    (SELECT a.display_name FROM accounts a WHERE a.id = o.owner_id))
WHERE o.reference_number >= 10000;
