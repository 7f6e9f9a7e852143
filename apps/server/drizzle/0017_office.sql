CREATE TABLE "documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" integer,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_modified_by_users_id_fk" FOREIGN KEY ("modified_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documents_name_idx" ON "documents" USING btree (lower("name"),"id");--> statement-breakpoint
CREATE INDEX "action_log_entity_date_idx" ON "action_log" USING btree ("entity","date");--> statement-breakpoint
CREATE INDEX "action_log_by_entity_date_idx" ON "action_log" USING btree ("action_by","entity","date");