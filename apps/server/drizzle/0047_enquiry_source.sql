-- The source (a source account) the leads made by the public site's enquiry form are given: the
-- office picks it on the settings page. Deleting that account leaves enquiries without a source.
ALTER TABLE "site_settings" ADD COLUMN "enquiry_source_id" integer REFERENCES "accounts"("id") ON DELETE SET NULL;
