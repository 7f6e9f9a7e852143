-- What the agency's viewing sheet (decision 044) carries besides the public site's details: the
-- agency's registry number (Αρ. Μητρώου Μεσιτών / ΓΕΜΗ), its tax number (ΑΦΜ), and its fee terms —
-- a percentage of the price for a sale and a number of months' rent for a letting, both before VAT.
-- Null when not set: the sheet leaves a line to fill in by hand.
ALTER TABLE "site_settings" ADD COLUMN "licence" text;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "tax_number" text;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "sale_fee_percent" numeric(5, 2);--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "rent_fee_months" numeric(4, 2);--> statement-breakpoint
ALTER TABLE "site_settings" ADD CONSTRAINT "site_settings_sale_fee_range" CHECK ("sale_fee_percent" > 0 AND "sale_fee_percent" <= 100);--> statement-breakpoint
ALTER TABLE "site_settings" ADD CONSTRAINT "site_settings_rent_fee_range" CHECK ("rent_fee_months" > 0 AND "rent_fee_months" <= 12);
