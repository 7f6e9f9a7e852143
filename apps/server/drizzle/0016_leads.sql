CREATE TABLE "leads" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer,
	"source" integer,
	"stage" smallint,
	"priority" smallint,
	"start_date" date,
	"end_date" date,
	"for_purchase" boolean DEFAULT false NOT NULL,
	"for_rent" boolean DEFAULT false NOT NULL,
	"for_short_rent" boolean DEFAULT false NOT NULL,
	"for_sell" boolean DEFAULT false NOT NULL,
	"for_rent_out" boolean DEFAULT false NOT NULL,
	"purchase_budget_range_min" numeric(14, 2),
	"purchase_budget_range_max" numeric(14, 2),
	"rent_budget_range_min" numeric(14, 2),
	"rent_budget_range_max" numeric(14, 2),
	"short_rent_budget_range_min" numeric(14, 2),
	"short_rent_budget_range_max" numeric(14, 2),
	"location_id" integer,
	"object_sub_types" smallint[] DEFAULT '{}'::smallint[] NOT NULL,
	"area_min" numeric(12, 2),
	"area_max" numeric(12, 2),
	"bedrooms_min" integer,
	"features" text[] DEFAULT '{}'::text[] NOT NULL,
	"description" text,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"matches_seen_on" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lead_object_marks" (
	"lead_id" integer NOT NULL,
	"object_id" integer NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	CONSTRAINT "lead_object_marks_lead_id_object_id_pk" PRIMARY KEY("lead_id","object_id")
);
--> statement-breakpoint
CREATE TABLE "lead_objects" (
	"lead_id" integer NOT NULL,
	"object_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lead_objects_lead_id_object_id_pk" PRIMARY KEY("lead_id","object_id")
);
--> statement-breakpoint
CREATE TABLE "viewing_objects" (
	"viewing_id" integer NOT NULL,
	"object_id" integer NOT NULL,
	"result" smallint,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "viewing_objects_viewing_id_object_id_pk" PRIMARY KEY("viewing_id","object_id")
);
--> statement-breakpoint
CREATE TABLE "viewings" (
	"id" serial PRIMARY KEY NOT NULL,
	"appointment_created" timestamp with time zone,
	"date_of_viewing" timestamp with time zone,
	"demand_id" integer,
	"result" smallint,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" integer,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_source_accounts_id_fk" FOREIGN KEY ("source") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_modified_by_users_id_fk" FOREIGN KEY ("modified_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_object_marks" ADD CONSTRAINT "lead_object_marks_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_object_marks" ADD CONSTRAINT "lead_object_marks_object_id_objects_id_fk" FOREIGN KEY ("object_id") REFERENCES "public"."objects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_object_marks" ADD CONSTRAINT "lead_object_marks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_objects" ADD CONSTRAINT "lead_objects_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_objects" ADD CONSTRAINT "lead_objects_object_id_objects_id_fk" FOREIGN KEY ("object_id") REFERENCES "public"."objects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewing_objects" ADD CONSTRAINT "viewing_objects_viewing_id_viewings_id_fk" FOREIGN KEY ("viewing_id") REFERENCES "public"."viewings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewing_objects" ADD CONSTRAINT "viewing_objects_object_id_objects_id_fk" FOREIGN KEY ("object_id") REFERENCES "public"."objects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewings" ADD CONSTRAINT "viewings_demand_id_leads_id_fk" FOREIGN KEY ("demand_id") REFERENCES "public"."leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewings" ADD CONSTRAINT "viewings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewings" ADD CONSTRAINT "viewings_modified_by_users_id_fk" FOREIGN KEY ("modified_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leads_created_on_idx" ON "leads" USING btree ("created_on");--> statement-breakpoint
CREATE INDEX "leads_account_idx" ON "leads" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "leads_source_idx" ON "leads" USING btree ("source");--> statement-breakpoint
CREATE INDEX "leads_stage_idx" ON "leads" USING btree ("stage","created_on");--> statement-breakpoint
CREATE INDEX "leads_open_account_idx" ON "leads" USING btree ("account_id") WHERE coalesce(stage, 0) not in (6, 7);--> statement-breakpoint
CREATE INDEX "lead_object_marks_object_idx" ON "lead_object_marks" USING btree ("object_id");--> statement-breakpoint
CREATE INDEX "lead_objects_object_idx" ON "lead_objects" USING btree ("object_id");--> statement-breakpoint
CREATE INDEX "viewing_objects_object_idx" ON "viewing_objects" USING btree ("object_id");--> statement-breakpoint
CREATE INDEX "viewings_date_idx" ON "viewings" USING btree ("date_of_viewing");--> statement-breakpoint
CREATE INDEX "viewings_created_idx" ON "viewings" USING btree ("appointment_created");--> statement-breakpoint
CREATE INDEX "viewings_demand_idx" ON "viewings" USING btree ("demand_id");--> statement-breakpoint
CREATE INDEX "viewings_result_idx" ON "viewings" USING btree ("result","date_of_viewing");