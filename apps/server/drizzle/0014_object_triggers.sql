-- Objects keep three derived values in step with the rows they come from, whoever writes those
-- rows (the API, the demo data, the bench generator, a merge of accounts, a cascade):
--   search_text  from the reference number, titles, address and the owner's name;
--   owner_id     the first current owner link (relation 1, no end date or one not yet past);
--   has_key      whether the agency holds a key (received, and not given away since).
CREATE OR REPLACE FUNCTION crm_objects_search_text_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := public.crm_object_search_text(NEW.reference_number, NEW.title, NEW.title_ru, NEW.address,
    (SELECT a.display_name FROM accounts a WHERE a.id = NEW.owner_id));
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER objects_search_text BEFORE INSERT OR UPDATE OF reference_number, title, title_ru, address, owner_id ON objects
  FOR EACH ROW EXECUTE FUNCTION crm_objects_search_text_row();
--> statement-breakpoint
UPDATE objects o SET search_text = public.crm_object_search_text(o.reference_number, o.title, o.title_ru, o.address,
  (SELECT a.display_name FROM accounts a WHERE a.id = o.owner_id));
--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_objects_refresh_owner(ids integer[]) RETURNS void LANGUAGE sql AS $$
  UPDATE objects o SET owner_id = w.account_id
  FROM (
    SELECT i.id, (
      SELECT oa.account_id FROM object_accounts oa
      WHERE oa.object_id = i.id AND oa.relation = 1 AND (oa.end_date IS NULL OR oa.end_date >= current_date)
      ORDER BY oa.start_date NULLS FIRST, oa.created_on, oa.account_id
      LIMIT 1) AS account_id
    FROM unnest(ids) AS i(id)
  ) w
  WHERE o.id = w.id AND o.owner_id IS DISTINCT FROM w.account_id
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_object_accounts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public.crm_objects_refresh_owner(ARRAY(SELECT DISTINCT n.object_id FROM new_rows n WHERE n.relation = 1));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_object_accounts_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public.crm_objects_refresh_owner(ARRAY(
    SELECT n.object_id FROM new_rows n WHERE n.relation = 1 UNION SELECT o.object_id FROM old_rows o WHERE o.relation = 1));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_object_accounts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public.crm_objects_refresh_owner(ARRAY(SELECT DISTINCT o.object_id FROM old_rows o WHERE o.relation = 1));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER object_accounts_owner_ins AFTER INSERT ON object_accounts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_object_accounts_inserted();
--> statement-breakpoint
CREATE TRIGGER object_accounts_owner_upd AFTER UPDATE ON object_accounts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_object_accounts_updated();
--> statement-breakpoint
CREATE TRIGGER object_accounts_owner_del AFTER DELETE ON object_accounts REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_object_accounts_deleted();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_objects_refresh_has_key(ids integer[]) RETURNS void LANGUAGE sql AS $$
  UPDATE objects o SET has_key = w.held
  FROM (
    SELECT i.id, EXISTS (
      SELECT 1 FROM object_keys k
      WHERE k.object_id = i.id AND k.received IS NOT NULL AND (k.given_away IS NULL OR k.given_away < k.received)) AS held
    FROM unnest(ids) AS i(id)
  ) w
  WHERE o.id = w.id AND o.has_key IS DISTINCT FROM w.held
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_object_keys_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public.crm_objects_refresh_has_key(ARRAY(SELECT DISTINCT n.object_id FROM new_rows n));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_object_keys_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public.crm_objects_refresh_has_key(ARRAY(SELECT n.object_id FROM new_rows n UNION SELECT o.object_id FROM old_rows o));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_object_keys_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public.crm_objects_refresh_has_key(ARRAY(SELECT DISTINCT o.object_id FROM old_rows o));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER object_keys_has_key_ins AFTER INSERT ON object_keys REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_object_keys_inserted();
--> statement-breakpoint
CREATE TRIGGER object_keys_has_key_upd AFTER UPDATE ON object_keys REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_object_keys_updated();
--> statement-breakpoint
CREATE TRIGGER object_keys_has_key_del AFTER DELETE ON object_keys REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_object_keys_deleted();
