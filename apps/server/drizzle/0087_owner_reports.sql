-- The owner's report (issue 47, decision 087): private links to a property's report for its owners
-- (the token kept as its SHA-256), the monthly mail's switch per property and the months mailed (once
-- each, across instances), the viewing comments an agent shared with the owner (kept as shared), and
-- the views of a property's page on the agency's site per month. None is counted for kept answers
-- (crm_data_changed): only the property's report card and the owner's page read them, afresh, and a
-- view of the public site (or an owner opening a link) must not make every kept answer stale.
CREATE TABLE "owner_report_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"object_id" integer NOT NULL REFERENCES "objects"("id") ON DELETE cascade,
	"token_hash" text NOT NULL,
	"hint" text NOT NULL,
	"language" text NOT NULL,
	"made_on" timestamp with time zone DEFAULT now() NOT NULL,
	"made_by" integer REFERENCES "users"("id") ON DELETE set null,
	"expires_on" timestamp with time zone NOT NULL,
	"revoked_on" timestamp with time zone,
	"revoked_by" integer REFERENCES "users"("id") ON DELETE set null,
	"opened_on" timestamp with time zone
);--> statement-breakpoint
CREATE UNIQUE INDEX "owner_report_links_token_hash_idx" ON "owner_report_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "owner_report_links_object_idx" ON "owner_report_links" USING btree ("object_id", "made_on");--> statement-breakpoint
CREATE TABLE "owner_report_settings" (
	"object_id" integer PRIMARY KEY NOT NULL REFERENCES "objects"("id") ON DELETE cascade,
	"monthly" boolean DEFAULT false NOT NULL,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" integer REFERENCES "users"("id") ON DELETE set null
);--> statement-breakpoint
CREATE INDEX "owner_report_settings_monthly_idx" ON "owner_report_settings" USING btree ("object_id") WHERE monthly;--> statement-breakpoint
CREATE TABLE "owner_report_mailings" (
	"object_id" integer NOT NULL REFERENCES "objects"("id") ON DELETE cascade,
	"month" date NOT NULL,
	"mailed_on" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "owner_report_mailings_pk" PRIMARY KEY("object_id","month")
);--> statement-breakpoint
CREATE TABLE "owner_report_shares" (
	"viewing_id" integer NOT NULL REFERENCES "viewings"("id") ON DELETE cascade,
	"object_id" integer NOT NULL REFERENCES "objects"("id") ON DELETE cascade,
	"comment" text NOT NULL,
	"shared_on" timestamp with time zone DEFAULT now() NOT NULL,
	"shared_by" integer REFERENCES "users"("id") ON DELETE set null,
	CONSTRAINT "owner_report_shares_pk" PRIMARY KEY("viewing_id","object_id")
);--> statement-breakpoint
CREATE INDEX "owner_report_shares_object_idx" ON "owner_report_shares" USING btree ("object_id");--> statement-breakpoint
CREATE TABLE "object_site_views" (
	"object_id" integer NOT NULL REFERENCES "objects"("id") ON DELETE cascade,
	"month" date NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "object_site_views_pk" PRIMARY KEY("object_id","month")
);
