-- Issue 47, commission invoices and receipts reported to myDATA (decision 085): documents issued
-- from closed deals (Τιμολόγιο Παροχής Υπηρεσιών 2.1, Απόδειξη Παροχής Υπηρεσιών 11.2, credit note
-- 5.1), numbered without gaps per series in the issuing transaction, final once issued; amounts in
-- integer cents; myDATA's answer (MARK, UID, authentication code, errors) kept on the document.
CREATE TABLE "invoices" (
  "id" serial PRIMARY KEY NOT NULL,
  "deal_id" integer REFERENCES "deals"("id") ON DELETE SET NULL,
  "kind" text NOT NULL,
  "status" text DEFAULT 'draft' NOT NULL,
  "series" text NOT NULL,
  "number" integer,
  "issue_date" date,
  "counterpart" jsonb NOT NULL,
  "lines" jsonb NOT NULL,
  "net_cents" bigint NOT NULL,
  "vat_cents" bigint NOT NULL,
  "gross_cents" bigint NOT NULL,
  "payment_method" smallint NOT NULL,
  "credit_of" integer REFERENCES "invoices"("id") ON DELETE RESTRICT,
  "issuer_vat_number" text,
  "issuer_branch" integer,
  "mark" bigint,
  "uid" text,
  "authentication_code" text,
  "qr_url" text,
  "errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "transmitted_on" timestamp with time zone,
  "created_on" timestamp with time zone DEFAULT now() NOT NULL,
  "created_by" integer REFERENCES "users"("id") ON DELETE SET NULL,
  "modified_on" timestamp with time zone DEFAULT now() NOT NULL,
  "modified_by" integer REFERENCES "users"("id") ON DELETE SET NULL,
  "version" integer DEFAULT 1 NOT NULL,
  CONSTRAINT "invoices_kind" CHECK ("kind" IN ('invoice', 'receipt', 'credit')),
  CONSTRAINT "invoices_status" CHECK ("status" IN ('draft', 'issued', 'sent', 'accepted', 'rejected')),
  CONSTRAINT "invoices_numbered" CHECK (("status" = 'draft') = ("number" IS NULL) AND ("number" IS NULL) = ("issue_date" IS NULL)),
  CONSTRAINT "invoices_sums" CHECK ("gross_cents" = "net_cents" + "vat_cents" AND "net_cents" >= 0 AND "vat_cents" >= 0),
  CONSTRAINT "invoices_credit" CHECK (("kind" = 'credit') = ("credit_of" IS NOT NULL))
);--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_series_number_idx" ON "invoices" USING btree ("series", "number") WHERE "number" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "invoices_status_idx" ON "invoices" USING btree ("status", "id");--> statement-breakpoint
CREATE INDEX "invoices_deal_idx" ON "invoices" USING btree ("deal_id");--> statement-breakpoint
CREATE INDEX "invoices_credit_of_idx" ON "invoices" USING btree ("credit_of");--> statement-breakpoint
-- Each series' last number, taken (row locked) in the transaction that issues: a rollback gives it back.
CREATE TABLE "invoice_series" (
  "series" text PRIMARY KEY NOT NULL,
  "last_number" integer NOT NULL
);--> statement-breakpoint
-- The agency's tax data for its documents and its myDATA credentials (one row): the subscription
-- key sealed with AES-256-GCM (lib/secret-box.ts, the mailboxes' key), never answered.
CREATE TABLE "invoice_settings" (
  "id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
  "vat_number" text,
  "branch" integer DEFAULT 0 NOT NULL,
  "mydata_user_id" text,
  "mydata_key" text,
  "modified_on" timestamp with time zone DEFAULT now() NOT NULL,
  "version" integer DEFAULT 1 NOT NULL,
  CONSTRAINT "invoice_settings_one" CHECK ("id" = 1)
);--> statement-breakpoint
INSERT INTO "invoice_settings" ("id", "vat_number") SELECT 1, nullif(btrim(tax_number), '') FROM site_settings WHERE id = 1 UNION ALL SELECT 1, NULL WHERE NOT EXISTS (SELECT 1 FROM site_settings WHERE id = 1);--> statement-breakpoint
CREATE TRIGGER invoices_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON invoices FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER invoice_series_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON invoice_series FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER invoice_settings_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON invoice_settings FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();
