-- Each instance of the app keeps the public site's pages a short while (decision 022). They must go
-- at once, on every instance, when a published property changes, is withdrawn (its request, active,
-- sold or published flag) or deleted, or when the agency's details change: these triggers tell every
-- listening connection (NOTIFY, sent only when the transaction commits; one notice a transaction).
CREATE OR REPLACE FUNCTION crm_public_site_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('crm_public_site', '');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER objects_public_site_update AFTER UPDATE ON objects
  FOR EACH ROW WHEN (OLD.published OR NEW.published) EXECUTE FUNCTION crm_public_site_changed();
--> statement-breakpoint
CREATE TRIGGER objects_public_site_insert AFTER INSERT ON objects
  FOR EACH ROW WHEN (NEW.published) EXECUTE FUNCTION crm_public_site_changed();
--> statement-breakpoint
CREATE TRIGGER objects_public_site_delete AFTER DELETE ON objects
  FOR EACH ROW WHEN (OLD.published) EXECUTE FUNCTION crm_public_site_changed();
--> statement-breakpoint
CREATE TRIGGER site_settings_public_site AFTER INSERT OR UPDATE OR DELETE ON site_settings
  FOR EACH STATEMENT EXECUTE FUNCTION crm_public_site_changed();
--> statement-breakpoint
-- A published photo's public address names the copy it serves ("…-web.webp"), found by that name.
CREATE INDEX IF NOT EXISTS files_web_name_idx ON files (web_name) WHERE web_name IS NOT NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS files_thumb_name_idx ON files (thumb_name) WHERE thumb_name IS NOT NULL;
