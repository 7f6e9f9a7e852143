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
-- Written as the save's trigger writes it (the titles in one text, 0074). Their words (0124) lose
-- the cut number only, unless the text has it otherwise (an area of 2494 m² beside number 24949):
-- the words' trigger, which writes all of a property's words again, is left out of this update
-- (measured at full size, 40,000 properties on a busy machine: 12 s instead of 22 s under the lock).
-- A cut number no property has any more leaves object_search_words with the daily prune.
ALTER TABLE objects DISABLE TRIGGER objects_words_update;
--> statement-breakpoint
UPDATE objects o SET search_text = public.crm_object_search_text(o.reference_number, concat_ws(' ', o.title, o.title_en), o.title_ru, o.address,
    (SELECT a.display_name FROM accounts a WHERE a.id = o.owner_id))
WHERE o.reference_number >= 10000;
--> statement-breakpoint
ALTER TABLE objects ENABLE TRIGGER objects_words_update;
--> statement-breakpoint
DELETE FROM object_words w USING objects o
WHERE w.object_id = o.id AND o.reference_number >= 10000 AND w.word = left(o.reference_number::text, 4)
  AND w.word <> ALL (public.crm_search_text_words(o.search_text));
