-- The public pages also show a published property's place (its name and its parents', and the place
-- filter's regions and municipalities) and whether it is let now (a tenant link whose term runs
-- today, decision 022). A change of either empties the pages kept (0052's channel) at once, only
-- when it can matter: a place a published property is in (or under), a tenant link of a published
-- property. One check a statement (the seed writes every place at each start, mostly unchanged).
CREATE OR REPLACE FUNCTION crm_public_site_places_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM new_places n JOIN old_places o ON o.id = n.id
    WHERE (n.name_en, n.name_el, n.name_ru, n.text_en, n.text_el, n.text_ru, n.level, n.parent_id, n.path)
        IS DISTINCT FROM (o.name_en, o.name_el, o.name_ru, o.text_en, o.text_el, o.text_ru, o.level, o.parent_id, o.path)
      AND EXISTS (SELECT 1 FROM objects ob JOIN locations ol ON ol.id = ob.location_id
        WHERE ob.published AND ol.path @> ARRAY[n.id])
  ) THEN
    PERFORM pg_notify('crm_public_site', '');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER locations_public_site AFTER UPDATE ON locations
  REFERENCING OLD TABLE AS old_places NEW TABLE AS new_places
  FOR EACH STATEMENT EXECUTE FUNCTION crm_public_site_places_changed();
--> statement-breakpoint
-- Tenant links (relation 4) added, changed or removed, of a published property. An insert has only
-- the new rows, a delete only the old ones: one trigger for each, one function.
CREATE OR REPLACE FUNCTION crm_public_site_tenants_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  hit boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT EXISTS (SELECT 1 FROM new_links l JOIN objects o ON o.id = l.object_id WHERE l.relation = 4 AND o.published) INTO hit;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT EXISTS (SELECT 1 FROM old_links l JOIN objects o ON o.id = l.object_id WHERE l.relation = 4 AND o.published) INTO hit;
  ELSE
    SELECT EXISTS (
      SELECT 1 FROM (SELECT object_id, relation FROM old_links UNION ALL SELECT object_id, relation FROM new_links) l
      JOIN objects o ON o.id = l.object_id WHERE l.relation = 4 AND o.published) INTO hit;
  END IF;
  IF hit THEN
    PERFORM pg_notify('crm_public_site', '');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER object_accounts_public_site_insert AFTER INSERT ON object_accounts
  REFERENCING NEW TABLE AS new_links FOR EACH STATEMENT EXECUTE FUNCTION crm_public_site_tenants_changed();
--> statement-breakpoint
CREATE TRIGGER object_accounts_public_site_update AFTER UPDATE ON object_accounts
  REFERENCING OLD TABLE AS old_links NEW TABLE AS new_links FOR EACH STATEMENT EXECUTE FUNCTION crm_public_site_tenants_changed();
--> statement-breakpoint
CREATE TRIGGER object_accounts_public_site_delete AFTER DELETE ON object_accounts
  REFERENCING OLD TABLE AS old_links FOR EACH STATEMENT EXECUTE FUNCTION crm_public_site_tenants_changed();
--> statement-breakpoint
-- An enquiry naming a property deleted since is taken only if it was on the site: its deletion's
-- record is found by the reference number (the only thing the visitor's address holds).
CREATE INDEX IF NOT EXISTS action_log_object_deleted_ref_idx ON action_log ((data->>'referenceNumber')) WHERE entity = 'Object' AND action = 'Delete';
