-- Issue 47, mandates (εντολή ανάθεσης, law 4072/2012 art. 197-204): a property's written mandates,
-- simple or exclusive, with the owners who gave them, dates, price and commission agreed, the
-- named exceptions and one extension; alerts 30 and 10 days before the end are made once each
-- (alert_30_on, alert_10_on); the agency may require a mandate in force to publish (decision 079).
CREATE TABLE "object_mandates" (
  "id" serial PRIMARY KEY NOT NULL,
  "object_id" integer NOT NULL REFERENCES "objects"("id") ON DELETE CASCADE,
  "kind" text NOT NULL,
  "start_date" date NOT NULL,
  "end_date" date NOT NULL,
  "extended_until" date,
  "extensions" smallint NOT NULL DEFAULT 0,
  "asking_price" numeric(14, 2),
  "commission_percent" numeric(5, 2),
  "commission_amount" numeric(14, 2),
  "exceptions" jsonb NOT NULL DEFAULT '[]'::jsonb,
  "notes" text,
  "alert_30_on" date,
  "alert_10_on" date,
  "created_on" timestamp with time zone DEFAULT now() NOT NULL,
  "created_by" integer REFERENCES "users"("id") ON DELETE SET NULL,
  "modified_on" timestamp with time zone DEFAULT now() NOT NULL,
  "modified_by" integer REFERENCES "users"("id") ON DELETE SET NULL,
  "version" integer DEFAULT 1 NOT NULL,
  CONSTRAINT "object_mandates_kind" CHECK ("kind" IN ('simple', 'exclusive')),
  CONSTRAINT "object_mandates_dates" CHECK ("end_date" >= "start_date" AND ("extended_until" IS NULL OR "extended_until" > "end_date")),
  CONSTRAINT "object_mandates_extensions" CHECK (("extensions" >= 0 AND "extensions" <= 1) OR "kind" = 'simple')
);--> statement-breakpoint
CREATE INDEX "object_mandates_object_idx" ON "object_mandates" USING btree ("object_id", "start_date");--> statement-breakpoint
CREATE INDEX "object_mandates_ends_idx" ON "object_mandates" USING btree ((coalesce("extended_until", "end_date")));--> statement-breakpoint
-- The owners who gave a mandate: links to their accounts (their names, father's name, identity and
-- tax numbers and address are the account's), with the tax office (ΔΟΥ), which accounts do not hold.
CREATE TABLE "object_mandate_owners" (
  "mandate_id" integer NOT NULL REFERENCES "object_mandates"("id") ON DELETE CASCADE,
  "account_id" integer NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
  "position" smallint NOT NULL DEFAULT 0,
  "tax_office" text,
  CONSTRAINT "object_mandate_owners_pk" PRIMARY KEY ("mandate_id", "account_id")
);--> statement-breakpoint
CREATE INDEX "object_mandate_owners_account_idx" ON "object_mandate_owners" USING btree ("account_id");--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "mandate_required_to_publish" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE TRIGGER object_mandates_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON object_mandates FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER object_mandate_owners_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON object_mandate_owners FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();
