CREATE TABLE "payment_accounts" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"transactions_modified_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transaction_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"transaction_id" integer NOT NULL,
	"system_name" text NOT NULL,
	"user_name" text NOT NULL,
	"mime" text NOT NULL,
	"size" integer NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" serial PRIMARY KEY NOT NULL,
	"reference_number" serial NOT NULL,
	"account_id" integer NOT NULL,
	"type" text NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"transaction_date" timestamp with time zone NOT NULL,
	"payment_method" smallint DEFAULT 1 NOT NULL,
	"category_id" smallint,
	"internal_notes" text,
	"status" smallint,
	"payment_date" date,
	"expiration_date" date,
	"start_date" date,
	"end_date" date,
	"approval_requested_on" timestamp with time zone,
	"approval_token_hash" text,
	"confirmed_by_client_date" timestamp with time zone,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" integer,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_accounts" ADD CONSTRAINT "payment_accounts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_attachments" ADD CONSTRAINT "transaction_attachments_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_attachments" ADD CONSTRAINT "transaction_attachments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_modified_by_users_id_fk" FOREIGN KEY ("modified_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_accounts_modified_idx" ON "payment_accounts" USING btree ("transactions_modified_on","account_id");--> statement-breakpoint
CREATE INDEX "transaction_attachments_transaction_idx" ON "transaction_attachments" USING btree ("transaction_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "transaction_attachments_system_name_uq" ON "transaction_attachments" USING btree ("system_name");--> statement-breakpoint
CREATE INDEX "transactions_account_date_idx" ON "transactions" USING btree ("account_id","transaction_date","id");--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_reference_number_uq" ON "transactions" USING btree ("reference_number");--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_approval_token_uq" ON "transactions" USING btree ("approval_token_hash");
--> statement-breakpoint

-- Hand-written: what the ledger never holds, and the indexes drizzle does not describe.
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_type_ck" CHECK ("type" in ('income', 'expense'));--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_amount_ck" CHECK ("amount" > 0);--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_status_ck" CHECK (("type" = 'expense') = ("status" is not null));--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_payment_method_ck" CHECK ("payment_method" in (1, 2));--> statement-breakpoint
-- The unpaid count of a statement: expenses not paid, per account.
CREATE INDEX "transactions_unpaid_idx" ON "transactions" USING btree ("account_id") WHERE "type" = 'expense' and "status" = 0;--> statement-breakpoint
-- The payments list: accounts that keep payments.
CREATE INDEX "accounts_payments_idx" ON "accounts" USING btree ("modified_on") WHERE "has_transactions";
--> statement-breakpoint
-- Every account that keeps payments has its payment_accounts row (the payments list walks that
-- table by its "modified on" index): made when the flag is set, whoever sets it.
CREATE FUNCTION crm_payment_account_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payment_accounts (account_id, transactions_modified_on) VALUES (NEW.id, coalesce(NEW.modified_on, now()))
  ON CONFLICT (account_id) DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER accounts_payment_account_row AFTER INSERT OR UPDATE OF has_transactions ON accounts
  FOR EACH ROW WHEN (NEW.has_transactions) EXECUTE FUNCTION crm_payment_account_row();--> statement-breakpoint
INSERT INTO payment_accounts (account_id, transactions_modified_on) SELECT id, modified_on FROM accounts WHERE has_transactions ON CONFLICT (account_id) DO NOTHING;
