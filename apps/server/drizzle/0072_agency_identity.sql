-- The agency's own face (issue 45): its name in Greek beside the one in Latin letters (`name`, the
-- public site's until now), its logo (a stored file's name), web address, tax office (ΔΟΥ), the
-- CRM's public address (used for links instead of PUBLIC_URL when set), and when the first set-up
-- was done. An agency that had already filled its details in has done its set-up.
ALTER TABLE "site_settings" ADD COLUMN "name_el" text;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "logo_name" text;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "website" text;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "tax_office" text;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "public_url" text;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "setup_done_on" timestamp with time zone;--> statement-breakpoint
UPDATE "site_settings" SET "setup_done_on" = now()
  WHERE coalesce("name", "phone", "email", "address", "licence", "tax_number") IS NOT NULL OR "sale_fee_percent" IS NOT NULL OR "rent_fee_months" IS NOT NULL;
