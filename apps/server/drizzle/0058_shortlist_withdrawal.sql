-- A shortlist's link can be withdrawn by the office (decision 049): when, and by whom (id and name as it was).
ALTER TABLE "shortlists" ADD COLUMN "withdrawn_on" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "shortlists" ADD COLUMN "withdrawn_by" integer;--> statement-breakpoint
ALTER TABLE "shortlists" ADD COLUMN "withdrawn_by_name" text;--> statement-breakpoint
ALTER TABLE "shortlists" ADD CONSTRAINT "shortlists_withdrawn_by_users_id_fk" FOREIGN KEY ("withdrawn_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
