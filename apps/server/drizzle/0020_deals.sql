CREATE TABLE "deals" (
	"id" serial PRIMARY KEY NOT NULL,
	"object_id" integer,
	"demand_id" integer,
	"deal_type" smallint NOT NULL,
	"deal_stage" smallint NOT NULL,
	"asking_price" numeric(14, 2),
	"price" numeric(14, 2),
	"deposit" numeric(14, 2),
	"commission" numeric(14, 2),
	"date_of_deposit" date,
	"start_date" date,
	"end_date" date,
	"contract_duration_months" integer,
	"rent_start" date,
	"rent_expiration" date,
	"notes" text,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" integer,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deal_parties" (
	"id" serial PRIMARY KEY NOT NULL,
	"deal_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"relation" smallint NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_object_id_objects_id_fk" FOREIGN KEY ("object_id") REFERENCES "public"."objects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_demand_id_leads_id_fk" FOREIGN KEY ("demand_id") REFERENCES "public"."leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_modified_by_users_id_fk" FOREIGN KEY ("modified_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_parties" ADD CONSTRAINT "deal_parties_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_parties" ADD CONSTRAINT "deal_parties_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deals_created_on_idx" ON "deals" USING btree ("created_on","id");--> statement-breakpoint
CREATE INDEX "deals_stage_idx" ON "deals" USING btree ("deal_stage","created_on","id");--> statement-breakpoint
CREATE INDEX "deals_type_idx" ON "deals" USING btree ("deal_type","created_on","id");--> statement-breakpoint
CREATE INDEX "deals_deposit_idx" ON "deals" USING btree ("date_of_deposit","id");--> statement-breakpoint
CREATE INDEX "deals_end_date_idx" ON "deals" USING btree ("end_date","id");--> statement-breakpoint
CREATE INDEX "deals_price_idx" ON "deals" USING btree ("price","id");--> statement-breakpoint
CREATE INDEX "deals_object_idx" ON "deals" USING btree ("object_id");--> statement-breakpoint
CREATE INDEX "deals_demand_idx" ON "deals" USING btree ("demand_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deal_parties_uq" ON "deal_parties" USING btree ("deal_id","relation","account_id");--> statement-breakpoint
CREATE INDEX "deal_parties_account_idx" ON "deal_parties" USING btree ("account_id","relation");