CREATE TABLE "accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"first_name" text,
	"last_name" text,
	"middle_name" text,
	"name" text,
	"name_eng" text,
	"name_local" text,
	"first_name_eng" text,
	"last_name_eng" text,
	"middle_name_eng" text,
	"first_name_local" text,
	"last_name_local" text,
	"middle_name_local" text,
	"is_owner" boolean DEFAULT false NOT NULL,
	"is_client" boolean DEFAULT false NOT NULL,
	"is_employe" boolean DEFAULT false NOT NULL,
	"is_source" boolean DEFAULT false NOT NULL,
	"is_professional" boolean DEFAULT false NOT NULL,
	"is_partner_real_estate" boolean DEFAULT false NOT NULL,
	"is_partner_tourism" boolean DEFAULT false NOT NULL,
	"is_company" boolean,
	"is_individual" boolean,
	"is_attorney" boolean DEFAULT false NOT NULL,
	"is_notary" boolean DEFAULT false NOT NULL,
	"is_lawyer" boolean DEFAULT false NOT NULL,
	"is_worker" boolean DEFAULT false NOT NULL,
	"is_electrician" boolean DEFAULT false NOT NULL,
	"is_construction_engineer" boolean DEFAULT false NOT NULL,
	"is_cleaner" boolean DEFAULT false NOT NULL,
	"is_interior_designer" boolean DEFAULT false NOT NULL,
	"is_translator" boolean DEFAULT false NOT NULL,
	"is_accountant" boolean DEFAULT false NOT NULL,
	"is_economist" boolean DEFAULT false NOT NULL,
	"is_landscape_designer" boolean DEFAULT false NOT NULL,
	"is_security_service" boolean DEFAULT false NOT NULL,
	"is_plumber" boolean DEFAULT false NOT NULL,
	"is_locksmith" boolean DEFAULT false NOT NULL,
	"is_it" boolean DEFAULT false NOT NULL,
	"is_web_designer" boolean DEFAULT false NOT NULL,
	"is_energy_supply_company" boolean DEFAULT false NOT NULL,
	"is_electrical_store" boolean DEFAULT false NOT NULL,
	"is_technician" boolean DEFAULT false NOT NULL,
	"is_real_estate_agency_or_broker" boolean DEFAULT false NOT NULL,
	"purchase_budget_range_min" numeric(14, 2),
	"purchase_budget_range_max" numeric(14, 2),
	"language" text,
	"country" text,
	"nationality" text,
	"company_type" text,
	"emails" text[] DEFAULT '{}'::text[] NOT NULL,
	"phones" text[] DEFAULT '{}'::text[] NOT NULL,
	"internal_passport_number" text,
	"passport_number" text,
	"tax_number" text,
	"tax_number_of_other_country" text,
	"city" text,
	"postcode" text,
	"address" text,
	"start_date" date,
	"end_date" date,
	"role" text,
	"branch_id" integer,
	"notes" text,
	"has_transactions" boolean DEFAULT false NOT NULL,
	"number_of_sold_objects" integer DEFAULT 0 NOT NULL,
	"is_client_date" timestamp with time zone,
	"is_owner_date" timestamp with time zone,
	"source_id" integer,
	"service" smallint,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" integer,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activities" (
	"id" serial PRIMARY KEY NOT NULL,
	"description" text,
	"done" boolean,
	"category" smallint DEFAULT 0 NOT NULL,
	"date" timestamp with time zone,
	"done_date" timestamp with time zone,
	"assigned_to" integer,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" integer,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_links" (
	"activity_id" integer NOT NULL,
	"entity" smallint NOT NULL,
	"entity_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "activity_links_activity_id_entity_entity_id_pk" PRIMARY KEY("activity_id","entity","entity_id")
);
--> statement-breakpoint
CREATE TABLE "assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"parent" smallint NOT NULL,
	"parent_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" serial PRIMARY KEY NOT NULL,
	"system_name" text NOT NULL,
	"user_name" text NOT NULL,
	"mime" text NOT NULL,
	"size" integer NOT NULL,
	"parent_type" smallint,
	"parent_id" integer,
	"type" text,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_modified_by_users_id_fk" FOREIGN KEY ("modified_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_assigned_to_accounts_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_modified_by_users_id_fk" FOREIGN KEY ("modified_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_links" ADD CONSTRAINT "activity_links_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_created_on_idx" ON "accounts" USING btree ("created_on");--> statement-breakpoint
CREATE INDEX "accounts_modified_on_idx" ON "accounts" USING btree ("modified_on");--> statement-breakpoint
CREATE INDEX "accounts_owner_idx" ON "accounts" USING btree ("created_on") WHERE "accounts"."is_owner";--> statement-breakpoint
CREATE INDEX "accounts_client_idx" ON "accounts" USING btree ("created_on") WHERE "accounts"."is_client";--> statement-breakpoint
CREATE INDEX "accounts_employe_idx" ON "accounts" USING btree ("created_on") WHERE "accounts"."is_employe";--> statement-breakpoint
CREATE INDEX "accounts_source_idx" ON "accounts" USING btree ("created_on") WHERE "accounts"."is_source";--> statement-breakpoint
CREATE INDEX "accounts_professional_idx" ON "accounts" USING btree ("created_on") WHERE "accounts"."is_professional";--> statement-breakpoint
CREATE INDEX "accounts_partner_idx" ON "accounts" USING btree ("created_on") WHERE "accounts"."is_partner_real_estate" or "accounts"."is_partner_tourism";--> statement-breakpoint
CREATE INDEX "accounts_client_source_idx" ON "accounts" USING btree ("source_id");--> statement-breakpoint
CREATE INDEX "activities_created_on_idx" ON "activities" USING btree ("created_on");--> statement-breakpoint
CREATE INDEX "activities_date_idx" ON "activities" USING btree ("date");--> statement-breakpoint
CREATE INDEX "activities_done_date_idx" ON "activities" USING btree ("done_date");--> statement-breakpoint
CREATE INDEX "activities_assigned_idx" ON "activities" USING btree ("assigned_to","created_on");--> statement-breakpoint
CREATE INDEX "activities_created_by_idx" ON "activities" USING btree ("created_by","created_on");--> statement-breakpoint
CREATE INDEX "activities_open_idx" ON "activities" USING btree ("assigned_to","date") WHERE "activities"."done" = false;--> statement-breakpoint
CREATE INDEX "activity_links_entity_idx" ON "activity_links" USING btree ("entity","entity_id","activity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "assignments_uq" ON "assignments" USING btree ("parent","parent_id","account_id");--> statement-breakpoint
CREATE INDEX "assignments_account_idx" ON "assignments" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "files_system_name_uq" ON "files" USING btree ("system_name");--> statement-breakpoint
CREATE INDEX "files_parent_idx" ON "files" USING btree ("parent_type","parent_id","sort_order");