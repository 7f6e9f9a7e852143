-- Issue 45: a person's gender, as the account states it (male, female, or not stated: null), which
-- a Greek or Russian letter greets by before it guesses from the name; and a property's English
-- title and description beside the main ones and the Russian ones (the public site in English, the
-- portal feed's lang="en" texts, the sheet in English).
-- The check NOT VALID: every existing row is null (which passes), so no scan of the accounts under the migration's lock; it holds for every row written from now on.
ALTER TABLE "accounts" ADD COLUMN "gender" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_gender_check" CHECK ("gender" IN ('male', 'female')) NOT VALID;--> statement-breakpoint
ALTER TABLE "objects" ADD COLUMN "title_en" text;--> statement-breakpoint
ALTER TABLE "objects" ADD COLUMN "description_en" text;
--> statement-breakpoint
-- Search finds a property by its English title too (an English screen lists it by that one). The
-- search text's function is unchanged: the titles go in as one text.
CREATE OR REPLACE FUNCTION crm_objects_search_text_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := public.crm_object_search_text(NEW.reference_number, concat_ws(' ', NEW.title, NEW.title_en), NEW.title_ru, NEW.address,
    (SELECT a.display_name FROM accounts a WHERE a.id = NEW.owner_id));
  RETURN NEW;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS objects_search_text ON objects;--> statement-breakpoint
CREATE TRIGGER objects_search_text BEFORE INSERT OR UPDATE OF reference_number, title, title_en, title_ru, address, owner_id ON objects
  FOR EACH ROW EXECUTE FUNCTION crm_objects_search_text_row();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_objects_owner_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE objects o SET search_text = public.crm_object_search_text(o.reference_number, concat_ws(' ', o.title, o.title_en), o.title_ru, o.address, NEW.display_name)
  WHERE o.owner_id = NEW.id;
  RETURN NULL;
END $$;
